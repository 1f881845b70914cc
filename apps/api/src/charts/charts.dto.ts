import { CHART_KINDS, type ChartKind, DEFAULT_SPAN_DAYS, MAX_CHART_PROJECTS, parseDay, readFlowProperty, readKind, readProjectIds } from '@board/charts';
import { readListName } from '@board/lists';
import { FieldRule, refusalOf } from '../http/dto/field-rules';

const projectIds = { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: MAX_CHART_PROJECTS };

/** POST /charts, fields in the order `readChartCreate` checks them (which stays the one reader). */
export class CreateChartBody {
  @FieldRule('chart-name', (value) => refusalOf(() => readListName(value, true)), { schema: { type: 'string', minLength: 1, maxLength: 100 }, required: true })
  name: string;

  @FieldRule('chart-kind', (value) => refusalOf(() => readKind(value)), { schema: { type: 'string', enum: [...CHART_KINDS] }, required: true })
  kind: ChartKind;

  @FieldRule('chart-projects', (value) => refusalOf(() => readProjectIds(value)), { schema: projectIds, required: true })
  projectIds: string[];

  /** Required by a flow chart (a select property of one of its projects); others ignore it. */
  @FieldRule('chart-property', (value, dto) => ((dto as { kind?: unknown }).kind === 'flow' ? refusalOf(() => readFlowProperty(value)) : null), {
    schema: { type: ['string', 'null'], format: 'uuid', description: 'A select property of one of the projects: required by a flow chart, ignored by the others.' },
  })
  propertyId?: string | null;
}

/**
 * PATCH /charts/:chartId: the chart must be the caller's (404) first, so the service reads this
 * with `parseRequest` after loading it. The kind stays; whether `propertyId` is read depends on the
 * saved kind, so `applyChartChange` checks it.
 */
export class UpdateChartBody {
  @FieldRule('chart-name-change', (value) => refusalOf(() => readListName(value, false)), { schema: { type: 'string', maxLength: 100 } })
  name?: string;

  @FieldRule('chart-projects-change', (value) => (value === undefined ? null : refusalOf(() => readProjectIds(value))), { schema: projectIds })
  projectIds?: string[];

  @FieldRule('chart-property-change', () => null, { schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] } })
  propertyId?: unknown;
}

/** Empty counts as absent (the default day). */
const dayRefusal = (value: unknown, name: 'From' | 'To') =>
  value === undefined || value === '' || parseDay(value) !== null ? null : ({ code: 'chart.day_invalid', params: { name } } as const);

/**
 * GET /charts/:chartId/data?from=YYYY-MM-DD&to=YYYY-MM-DD, read after the chart is loaded (404
 * first). `to` is checked before `from`; the range rules across both stay in `readDayRange`.
 */
export class ChartDataQuery {
  @FieldRule('chart-to', (value) => dayRefusal(value, 'To'), { schema: { type: 'string', description: 'The last day, YYYY-MM-DD (absent or empty: today).' } })
  to?: string;

  @FieldRule('chart-from', (value) => dayRefusal(value, 'From'), { schema: { type: 'string', description: `The first day, YYYY-MM-DD (absent or empty: ${DEFAULT_SPAN_DAYS} days before the last).` } })
  from?: string;
}
