/** The refusals of views, lenses and card views, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const VIEW_ERROR_CODES = [
  'view.not_found',
  'view.kind_invalid',
  'view.group_missing',
  'view.group_type',
  'view.roadmap_type',
  'view.board_needs_group',
  'view.main',
  'view.lens_clash',
  'card.place_invalid',
  'card.mode_invalid',
  'card.key_invalid',
  'card_view.rows_invalid',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof VIEW_ERROR_CODES)[number], true> {}
}
