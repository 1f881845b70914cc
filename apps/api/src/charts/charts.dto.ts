import {
  CHART_KINDS, type ChartChange, type ChartCreate, type ChartKind, type DaysAsked, DEFAULT_SPAN_DAYS, MAX_CHART_PROJECTS, readDayAsked, readFlowProperty, readKind,
  readProjectIds,
} from '@board/charts';
import type { InTurn } from '@board/kernel';
import { readListName } from '@board/lists';
import { Keeps, KeepsInTurn } from '../http/dto/field-rules';

const projectIds = { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: MAX_CHART_PROJECTS };

/** POST /charts: name, kind, projects, then a flow chart's property; each kept as its reader answered. */
export class CreateChartBody implements ChartCreate {
  @Keeps('chart-name', (value) => readListName(value, true), { doc: { schema: { type: 'string', minLength: 1, maxLength: 100 }, required: true } })
  name: string;

  @Keeps('chart-kind', readKind, { doc: { schema: { type: 'string', enum: [...CHART_KINDS] }, required: true } })
  kind: ChartKind;

  @Keeps('chart-projects', readProjectIds, { doc: { schema: projectIds, required: true } })
  projectIds: string[];

  /** Required by a flow chart (a select property of one of its projects); others ignore it (null). */
  @Keeps('chart-property', (value, dto) => ((dto as CreateChartBody).kind === 'flow' ? readFlowProperty(value) : null), { doc: {
    schema: { type: ['string', 'null'], format: 'uuid', description: 'A select property of one of the projects: required by a flow chart, ignored by the others.' },
  } })
  propertyId: string | null;
}

/**
 * PATCH /charts/:chartId, read after `ChartOwnerCheck` (the chart must be the caller's: 404 first).
 * The kind stays; `propertyId` counts only on a flow chart, so its refusal waits for the saved kind
 * (`applyChartChange`).
 */
export class UpdateChartBody implements ChartChange {
  @Keeps('chart-name-change', (value) => readListName(value, false), { doc: { schema: { type: 'string', maxLength: 100 } } })
  name?: string;

  @Keeps('chart-projects-change', readProjectIds, { optional: true, doc: { schema: projectIds } })
  projectIds?: string[];

  @KeepsInTurn('chart-property-change', readFlowProperty, { doc: { schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] } } })
  propertyId?: InTurn<string>;
}

/**
 * GET /charts/:chartId/data?from=YYYY-MM-DD&to=YYYY-MM-DD, read after the chart is found (404
 * first). `to` is read before `from`; empty counts as absent (the default day). The range rules
 * across both need the clock and stay in `dayRange`.
 */
export class ChartDataQuery implements DaysAsked {
  @Keeps('chart-to', (value) => readDayAsked(value, 'To'), { doc: { schema: { type: 'string', description: 'The last day, YYYY-MM-DD (absent or empty: today).' } } })
  to: Date | null;

  @Keeps('chart-from', (value) => readDayAsked(value, 'From'), { doc: {
    schema: { type: 'string', description: `The first day, YYYY-MM-DD (absent or empty: ${DEFAULT_SPAN_DAYS} days before the last).` },
  } })
  from: Date | null;
}
