/** The refusals of reading a Trello board export and planning its import, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const IMPORT_ERROR_CODES = [
  'import.not_trello',
  'import.section',
  'import.entry',
  'import.field',
  'import.duplicate',
  'import.unknown_list',
  'import.unknown_label',
  'import.property_type',
  'import.export_version',
  'import.export_section',
  'import.export_entry',
  'import.export_reference',
  'import.not_empty',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof IMPORT_ERROR_CODES)[number], true> {}
}
