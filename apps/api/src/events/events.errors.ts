/** The refusals of the feed and presence routes (their query and body rules live in this feature, not in a domain lib), by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const EVENTS_ERROR_CODES = [
  'feed.after_invalid',
  'feed.after_id_invalid',
  'feed.order_invalid',
  'presence.field_invalid',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof EVENTS_ERROR_CODES)[number], true> {}
}
