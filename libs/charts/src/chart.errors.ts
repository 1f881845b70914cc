/** The refusals of a person's charts, by stable code; the catalog (apps/api/src/http/error-catalog.ts) maps each. */
export const CHART_ERROR_CODES = [
  'chart.not_found',
  'chart.kind_invalid',
  'chart.projects',
  'chart.flow_property',
  'chart.day_invalid',
  'chart.range_order',
  'chart.too_many_days',
] as const;

// Adds these codes to the kernel's ErrorCode, so `fail('…')` anywhere checks against every lib's codes.
declare module '@board/kernel' {
  interface ErrorCodes extends Record<(typeof CHART_ERROR_CODES)[number], true> {}
}
