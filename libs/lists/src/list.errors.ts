/** The refusals of a person's lists of tasks, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const LIST_ERROR_CODES = [
  'list.not_found',
  'list.too_many',
  'list.full',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof LIST_ERROR_CODES)[number], true> {}
}
