/** The refusals of the inbox routes (extensions.md § 2), by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const NOTIFICATION_ERROR_CODES = [
  'notification.mark_nothing',
  'notification.mark_too_many',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof NOTIFICATION_ERROR_CODES)[number], true> {}
}
