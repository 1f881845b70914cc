/** The refusals of the service's own routes (the metrics scrape), by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const SYSTEM_ERROR_CODES = ['metrics.token_missing', 'metrics.token_wrong'] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof SYSTEM_ERROR_CODES)[number], true> {}
}
