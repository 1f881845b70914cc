import { parseDay } from '@board/charts';
import type { UsageQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { refusalCode } from '../../../../test/support/refusal-code';
import { UsageService } from './usage.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

/** The usage read model, typed to its one query: answers nothing, keeps what it was asked. */
class AskedUsage implements Pick<UsageQuery, 'read'> {
  readonly asked: { projectId: string; days: readonly string[] }[] = [];

  async read(projectId: string, days: readonly string[]) {
    this.asked.push({ projectId, days });
    return { total: { inputTokens: 0, outputTokens: 0, costMicros: 0, runs: 0 }, agents: [] };
  }
}

const caller: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: 'p1', clientId: null };

function setUp() {
  const usage = new AskedUsage();
  return { usage, service: new UsageService(usage as unknown as UsageQuery, new SteppedClock(new Date('2026-03-02T10:00:00.000Z'))) };
}

describe('UsageService', () => {
  it("reads the project's usage over the days asked, the last 30 by default (UTC)", async () => {
    const { service, usage } = setUp();
    expect(await service.read(caller, { from: parseDay('2026-02-27'), to: parseDay('2026-03-01') })).toMatchObject({ from: '2026-02-27', to: '2026-03-01', days: ['2026-02-27', '2026-02-28', '2026-03-01'] });
    const answer = await service.read(caller, { from: null, to: null });
    expect(answer.to).toBe('2026-03-02');
    expect(usage.asked.map((a) => [a.projectId, a.days.length])).toEqual([['p1', 3], ['p1', answer.days.length]]);
  });

  it('refuses a range the wrong way round before asking anything', async () => {
    const { service, usage } = setUp();
    expect(await refusalCode(service.read(caller, { from: parseDay('2026-03-02'), to: parseDay('2026-03-01') }))).toBe('chart.range_order');
    expect(usage.asked).toEqual([]);
  });
});
