import { parseDay } from '@board/charts';
import type { ChartQuery } from '@board/persistence';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryChartRepository } from '../../../../test/support/in-memory/chart-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import { ChartsService } from './charts.service';

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const STRANGER = '00000000-0000-4000-8000-000000000009';
const STATUS = '00000000-0000-4000-8000-0000000000e1';
const TEXT = '00000000-0000-4000-8000-0000000000e2';
const TODO = '00000000-0000-4000-8000-0000000000f1';

type Counts = ChartQuery['counts'];

/** Days as the query DTO reads them; none asked: the defaults. */
const days = (from: string, to: string) => ({ from: parseDay(from), to: parseDay(to) });
const ALL = { from: null, to: null };

function setUp() {
  const store = new InMemoryChartRepository();
  store.members.add(`ann:${P1}`).add(`ann:${P2}`).add(`ben:${P1}`);
  store.properties.set(STATUS, { id: STATUS, projectId: P1, name: 'Status', type: 'select', options: [{ id: TODO, name: 'To do', color: '#aaaaaa' }] });
  store.properties.set(TEXT, { id: TEXT, projectId: P1, name: 'Note', type: 'text', options: [] });
  const asked: Parameters<Counts>[0][] = [];
  const queries: Pick<ChartQuery, 'counts'> = {
    counts: (async (input: Parameters<Counts>[0]) => {
      asked.push(input);
      return [{ day: 1, key: 'done', n: 2 }, { day: 0, key: TODO, n: 3 }];
    }) as Counts,
  };
  const service = new ChartsService(store, queries as ChartQuery, new SteppedClock(new Date('2026-03-10T12:00:00Z')));
  return { store, service, asked };
}

describe('ChartsService', () => {
  it('creates a chart over the person’s projects, and refuses a project they are not in', async () => {
    const { store, service } = setUp();
    const chart = await service.create('ann', { name: 'Burn', kind: 'burnup', projectIds: [P1, P2], propertyId: null });
    expect(chart).toMatchObject({ name: 'Burn', kind: 'burnup', projectIds: [P1, P2], propertyId: null });
    expect(store.charts.size).toBe(1);
    expect(await refusalCode(service.create('ann', { name: 'Nope', kind: 'burnup', projectIds: [P1, STRANGER], propertyId: null }))).toBe('project.not_found');
    expect(store.charts.size).toBe(1);
  });

  it('checks a flow chart’s property: one of its projects, and a select', async () => {
    const { service } = setUp();
    expect((await service.create('ann', { name: 'Flow', kind: 'flow', projectIds: [P1], propertyId: STATUS })).propertyId).toBe(STATUS);
    expect(await refusalCode(service.create('ann', { name: 'Flow', kind: 'flow', projectIds: [P2], propertyId: STATUS }))).toBe('property.not_found');
    expect(await refusalCode(service.create('ann', { name: 'Flow', kind: 'flow', projectIds: [P1], propertyId: TEXT }))).toBe('chart.flow_property');
  });

  it('finds no chart of somebody else for its gate, change, delete or data', async () => {
    const { store, service } = setUp();
    const chart = await service.create('ann', { name: 'Mine', kind: 'throughput', projectIds: [P1], propertyId: null });
    expect(await refusalCode(service.checkOwned('ben', chart.id))).toBe('chart.not_found');
    expect(await refusalCode(service.checkOwned('ann', 'not-an-id'))).toBe('id.invalid');
    await expect(service.checkOwned('ann', chart.id)).resolves.toBeUndefined();
    expect(await refusalCode(service.update('ben', chart.id, { name: 'Theirs' }))).toBe('chart.not_found');
    expect(await refusalCode(service.data('ben', chart.id, ALL))).toBe('chart.not_found');
    expect(await refusalCode(service.remove('ben', chart.id))).toBe('chart.not_found');
    expect(store.charts.get(chart.id)?.name).toBe('Mine');
  });

  it('changes the name and projects, checking only projects that were sent', async () => {
    const { service } = setUp();
    const chart = await service.create('ann', { name: 'Old', kind: 'burnup', projectIds: [P1], propertyId: null });
    expect(await service.update('ann', chart.id, { name: 'New', projectIds: [P2] })).toMatchObject({ name: 'New', projectIds: [P2] });
    expect(await refusalCode(service.update('ann', chart.id, { projectIds: [STRANGER] }))).toBe('project.not_found');
  });

  it('counts the data over the visible projects and the asked days, filling the series', async () => {
    const { service, asked } = setUp();
    const chart = await service.create('ann', { name: 'Burn', kind: 'burnup', projectIds: [P1, P2], propertyId: null });
    const data = await service.data('ann', chart.id, days('2026-03-08', '2026-03-10'));
    expect(asked).toEqual([{ userId: 'ann', kind: 'burnup', projectIds: [P1, P2], propertyId: null, from: '2026-03-08', to: '2026-03-10' }]);
    expect(data.days).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
    expect(data.series).toEqual([
      { key: 'total', name: 'Total', color: null, values: [0, 0, 0] },
      { key: 'done', name: 'Done', color: null, values: [0, 2, 0] },
    ]);
    expect(await refusalCode(service.data('ann', chart.id, days('2026-03-10', '2026-03-08')))).toBe('chart.range_order');
  });

  it('draws no series and asks nothing of a flow chart whose property the reader cannot see', async () => {
    const { store, service, asked } = setUp();
    const chart = await service.create('ann', { name: 'Flow', kind: 'flow', projectIds: [P1], propertyId: STATUS });
    store.members.delete(`ann:${P1}`);
    const data = await service.data('ann', chart.id, ALL);
    expect(data.series).toEqual([]);
    expect(data.chart.projectIds).toEqual([]);
    expect(asked).toEqual([]);
  });
});
