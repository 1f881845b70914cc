import { DomainError, readAlready, readInTurn } from '@board/kernel';
import { applyChartChange, chartView, checkFlowProperty, ChartRecord, readFlowProperty, readKind, readProjectIds } from './chart';
import { dayRange, parseDay, readDayAsked } from './days';
import { fillSeries, seriesHeads } from './series';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const PROP = '33333333-3333-4333-8333-333333333333';

const refusal = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? `${e.code}${Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''}` : String(e);
  }
  return undefined;
};

describe('chart fields', () => {
  it('read a kind, projects (duplicates once, in lower case) and a flow property', () => {
    expect(readKind('flow')).toBe('flow');
    expect(readProjectIds([P1, P1.toUpperCase(), P2])).toEqual([P1, P2]);
    expect(readFlowProperty(PROP.toUpperCase())).toBe(PROP);
  });

  it('refuse each wrong field with its code', () => {
    expect(refusal(() => readKind('pie'))).toBe('chart.kind_invalid');
    expect(refusal(() => readProjectIds(undefined))).toBe('chart.projects');
    expect(refusal(() => readProjectIds([]))).toBe('chart.projects');
    expect(refusal(() => readProjectIds(P1))).toBe('chart.projects');
    const many = Array.from({ length: 21 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(refusal(() => readProjectIds(many))).toBe('chart.projects');
    expect(refusal(() => readProjectIds(['nope']))).toBe('id.invalid {"kind":"project"}');
    expect(refusal(() => readFlowProperty(undefined))).toBe('chart.flow_property');
    expect(refusal(() => readFlowProperty(null))).toBe('chart.flow_property');
    expect(refusal(() => readFlowProperty('x'))).toBe('id.invalid {"kind":"property"}');
  });

  it('want a flow property to exist among the projects and be a select', () => {
    expect(refusal(() => checkFlowProperty(null))).toBe('property.not_found');
    expect(refusal(() => checkFlowProperty({ type: 'multi_select' }))).toBe('chart.flow_property');
    expect(() => checkFlowProperty({ type: 'select' })).not.toThrow();
  });
});

describe('chart changes', () => {
  const chart: ChartRecord = { id: 'c', userId: 'u', name: 'Old', kind: 'flow', projectIds: [P1], propertyId: PROP, createdAt: new Date(0) };

  it('keep what the body leaves out and never change the kind', () => {
    expect(applyChartChange(chart, {})).toEqual(chart);
    expect(applyChartChange(chart, { name: 'New', projectIds: [P2] })).toEqual({ ...chart, name: 'New', projectIds: [P2] });
    expect(applyChartChange(chart, { propertyId: readAlready(P2) }).propertyId).toBe(P2);
  });

  it("refuse a flow chart's property in its turn, and let another kind ignore it", () => {
    const missing = readInTurn(() => readFlowProperty(null));
    const malformed = readInTurn(() => readFlowProperty('junk'));
    expect(refusal(() => applyChartChange(chart, { propertyId: missing }))).toBe('chart.flow_property');
    expect(refusal(() => applyChartChange(chart, { propertyId: malformed }))).toBe('id.invalid {"kind":"property"}');
    const burnup: ChartRecord = { ...chart, kind: 'burnup', propertyId: null };
    expect(applyChartChange(burnup, { propertyId: malformed }).propertyId).toBeNull();
    expect(applyChartChange(burnup, { propertyId: readAlready(PROP) }).propertyId).toBeNull();
  });

  it('answer only the projects the reader is still in', () => {
    expect(chartView({ ...chart, projectIds: [P1, P2] }, new Set([P2])).projectIds).toEqual([P2]);
  });
});

describe('day ranges', () => {
  const now = new Date('2026-03-10T23:59:00Z');

  it('parse only real calendar days', () => {
    expect(parseDay('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', ' 2024-01-01', '20240101', 5]) expect(parseDay(bad)).toBeNull();
  });

  const day = (text: string) => parseDay(text);

  it('default to the 30 days up to today (UTC)', () => {
    const r = dayRange({ from: null, to: null }, now);
    expect([r.from, r.to, r.days.length]).toEqual(['2026-02-09', '2026-03-10', 30]);
    expect(dayRange({ from: null, to: day('2026-01-31') }, now).from).toBe('2026-01-02');
  });

  it('count both ends and stop at 366 days', () => {
    expect(dayRange({ from: day('2025-01-01'), to: day('2026-01-01') }, now).days).toHaveLength(366);
    expect(refusal(() => dayRange({ from: day('2024-12-31'), to: day('2026-01-01') }, now))).toBe('chart.too_many_days');
    expect(dayRange({ from: day('2026-03-10'), to: day('2026-03-10') }, now).days).toEqual(['2026-03-10']);
  });

  it('read absent or empty as the default and refuse malformed days and a backwards range', () => {
    expect(readDayAsked(undefined, 'From')).toBeNull();
    expect(readDayAsked('', 'To')).toBeNull();
    expect(refusal(() => readDayAsked('yesterday', 'From'))).toBe('chart.day_invalid {"name":"From"}');
    expect(refusal(() => readDayAsked('2026-02-30', 'To'))).toBe('chart.day_invalid {"name":"To"}');
    expect(refusal(() => dayRange({ from: day('2026-03-11'), to: day('2026-03-10') }, now))).toBe('chart.range_order');
  });
});

describe('series', () => {
  it('name burnup, throughput and flow series, flow with a "No <property>" last', () => {
    expect(seriesHeads('burnup', null).map((s) => s.key)).toEqual(['total', 'done']);
    expect(seriesHeads('throughput', null).map((s) => s.key)).toEqual(['done']);
    expect(seriesHeads('flow', { propertyName: 'Status', options: [{ id: 'a', name: 'To do', color: '#e0574d' }] })).toEqual([
      { key: 'a', name: 'To do', color: '#e0574d' },
      { key: 'none', name: 'No Status', color: null },
    ]);
    expect(seriesHeads('burnup', null).map((s) => s.color)).toEqual([null, null]);
  });

  it('fill one value per day, zero where nothing was counted', () => {
    expect(fillSeries([{ key: 'done', name: 'Done', color: null }], 3, [{ day: 1, key: 'done', n: 4 }, { day: 2, key: 'gone', n: 9 }])).toEqual([
      { key: 'done', name: 'Done', color: null, values: [0, 4, 0] },
    ]);
  });
});
