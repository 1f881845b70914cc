import { fail, InTurn, inTurn, isUuid, parseId } from '@board/kernel';

export const CHART_KINDS = ['burnup', 'flow', 'throughput'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

export const MAX_CHART_PROJECTS = 20;

/** A chart as kept: whose, what it draws, over which projects (as chosen; the reader filters). */
export interface ChartRecord {
  id: string;
  userId: string;
  name: string;
  kind: ChartKind;
  projectIds: string[];
  propertyId: string | null;
  createdAt: Date;
}

export function readKind(value: unknown): ChartKind {
  if (typeof value !== 'string' || !(CHART_KINDS as readonly string[]).includes(value)) fail('chart.kind_invalid');
  return value as ChartKind;
}

/** 1–20 project ids, duplicates once, in the order sent. */
export function readProjectIds(value: unknown): string[] {
  if (!Array.isArray(value)) fail('chart.projects');
  const ids = [...new Set((value as unknown[]).map((v) => parseId(v, 'project')))];
  if (ids.length < 1 || ids.length > MAX_CHART_PROJECTS) fail('chart.projects');
  return ids;
}

/** A flow chart's property: required (missing, null or not an id is not a select property). */
export function readFlowProperty(value: unknown): string {
  if (value === undefined || value === null) fail('chart.flow_property');
  return parseId(value, 'property');
}

/** What a new chart asks for, as its request DTO read it (a list name's rules, `readKind`, `readProjectIds`). */
export interface ChartCreate {
  name: string;
  kind: ChartKind;
  projectIds: string[];
  /** A flow chart's property (`readFlowProperty`); null for the other kinds, which ignore it. */
  propertyId: string | null;
}

/**
 * A change of a chart; what is absent stays, and the kind never changes. `propertyId` is read with
 * the body, before the chart is loaded, but only a flow chart takes it (a burnup chart ignores even
 * a malformed one): whether its refusal counts depends on the saved kind, so it waits its turn.
 */
export interface ChartChange {
  name?: string;
  projectIds?: string[];
  propertyId?: InTurn<string>;
}

/** The chart as it would be after a change. Its flow property is checked against its projects by the caller. */
export function applyChartChange(chart: ChartRecord, change: ChartChange): ChartRecord {
  const name = change.name ?? chart.name;
  const projectIds = change.projectIds ?? chart.projectIds;
  let propertyId: string | null = null;
  if (chart.kind === 'flow') propertyId = change.propertyId === undefined ? chart.propertyId : inTurn(change.propertyId);
  return { ...chart, name, projectIds, propertyId };
}

/** A flow property found among the chart's projects must be a select. */
export function checkFlowProperty(property: { type: string } | null): void {
  if (!property) fail('property.not_found');
  if (property.type !== 'select') fail('chart.flow_property');
}

/** The answer shape of a chart. */
export function chartView(chart: ChartRecord, visibleProjectIds: ReadonlySet<string>) {
  return {
    id: chart.id,
    name: chart.name,
    kind: chart.kind,
    projectIds: chart.projectIds.filter((id) => visibleProjectIds.has(id)),
    propertyId: chart.kind === 'flow' ? chart.propertyId : null,
    createdAt: chart.createdAt,
  };
}

export const isChartId = isUuid;
