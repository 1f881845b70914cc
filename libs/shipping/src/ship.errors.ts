/** The refusals of shipping a release or a sprint, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const SHIP_ERROR_CODES = [
  'ship.rest_invalid',
  'ship.releases_off',
  'ship.sprints_off',
  'ship.no_target',
  'ship.last_option',
  'ship.already_shipped',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof SHIP_ERROR_CODES)[number], true> {}
}
