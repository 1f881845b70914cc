import { fail, isUuid, parseId } from '@board/kernel';
import { readListName } from '@board/lists';

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

/** The fields of a chart body (create or change), as sent. */
export interface ChartFields {
  name?: unknown;
  kind?: unknown;
  projectIds?: unknown;
  propertyId?: unknown;
}

/** What a create body asks for, checked as far as it can be without storage. */
export function readChartCreate(body: ChartFields): { name: string; kind: ChartKind; projectIds: string[]; propertyId: string | null } {
  const name = readListName(body.name, true);
  const kind = readKind(body.kind);
  const projectIds = readProjectIds(body.projectIds);
  const propertyId = kind === 'flow' ? readFlowProperty(body.propertyId) : null;
  return { name, kind, projectIds, propertyId };
}

/**
 * A change applied to a chart (kind stays): the chart as it would be. `propertyId` is checked
 * against the chart's projects by the caller whenever the kind is flow.
 */
export function applyChartChange(chart: ChartRecord, body: ChartFields): ChartRecord {
  const name = readListName(body.name, false) ?? chart.name;
  const projectIds = body.projectIds === undefined ? chart.projectIds : readProjectIds(body.projectIds);
  let propertyId: string | null = null;
  if (chart.kind === 'flow') propertyId = body.propertyId === undefined ? chart.propertyId : readFlowProperty(body.propertyId);
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
