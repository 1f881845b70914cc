import type { ChartKind } from './chart';

export interface Series {
  key: string;
  name: string;
  /** A flow series draws in its option's colour, so the chart reads like the board; others have none. */
  color: string | null;
  values: number[];
}

export type SeriesHead = Omit<Series, 'values'>;

/** The series a chart of `kind` draws, in order, before they are counted. */
export function seriesHeads(kind: ChartKind, flow: { propertyName: string; options: { id: string; name: string; color: string }[] } | null): SeriesHead[] {
  if (kind === 'burnup') return [{ key: 'total', name: 'Total', color: null }, { key: 'done', name: 'Done', color: null }];
  if (kind === 'throughput') return [{ key: 'done', name: 'Done', color: null }];
  if (!flow) return [];
  return [...flow.options.map((o) => ({ key: o.id, name: o.name, color: o.color })), { key: 'none', name: `No ${flow.propertyName}`, color: null }];
}

/**
 * The series with one value per day from counted rows `{ day index, key, n }` (a day or key
 * that has no row counts 0).
 */
export function fillSeries(heads: readonly SeriesHead[], dayCount: number, rows: readonly { day: number; key: string; n: number }[]): Series[] {
  const series = heads.map((h): Series => ({ key: h.key, name: h.name, color: h.color, values: new Array<number>(dayCount).fill(0) }));
  const byKey = new Map(series.map((s) => [s.key, s.values]));
  for (const r of rows) {
    const values = byKey.get(r.key);
    if (values && r.day >= 0 && r.day < dayCount) values[r.day] = r.n;
  }
  return series;
}
