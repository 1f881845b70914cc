/** The refusals of webhooks: kinds and the address rules of outgoing URLs, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const WEBHOOK_ERROR_CODES = [
  'webhook.not_found',
  'webhook.kind_invalid',
  'webhook.kinds_not_list',
  'webhook.url_invalid',
  'webhook.url_userinfo',
  'webhook.url_too_long',
  'webhook.address_private',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof WEBHOOK_ERROR_CODES)[number], true> {}
}
