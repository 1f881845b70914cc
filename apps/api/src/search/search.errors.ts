/** The refusals of the search route (its limit rule lives in this feature, not in a domain lib), by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const SEARCH_ERROR_CODES = [
  'search.limit_invalid',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof SEARCH_ERROR_CODES)[number], true> {}
}
