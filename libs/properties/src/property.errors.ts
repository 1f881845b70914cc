/** The refusals of properties, options and the values they take, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const PROPERTY_ERROR_CODES = [
  'property.not_in_project',
  'value.select',
  'value.option_gone',
  'value.multi',
  'value.person',
  'value.not_member',
  'value.text',
  'value.number',
  'value.date',
  'value.link_scheme',
  'value.link_count',
  'value.link_length',
  'value.link_list',
  'property.not_found',
  'property.type_invalid',
  'property.duplicate_option',
  'property.grouped_by_view',
  'property.grouped_by_views',
  'property.not_dated_type',
  'property.no_defaults',
  'property.default_key',
  'property.when_invalid',
  'option.not_found',
  'option.not_select',
  'option.duplicate',
  'option.color_invalid',
  'option.names_not_list',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof PROPERTY_ERROR_CODES)[number], true> {}
}
