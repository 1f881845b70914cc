import { Run } from '@board/runs';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryRunRepository } from '../../../../test/support/in-memory/run-repository';
import { InMemoryUsageRepository } from '../../../../test/support/in-memory/usage-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import { BudgetService, utcDay } from './budget.service';

function setUp() {
  const clock = new SteppedClock(new Date('2026-03-02T23:30:00.000Z'));
  const runs = new InMemoryRunRepository();
  const usage = new InMemoryUsageRepository();
  const open = (taskId: string) => runs.put(Run.claim({ id: `run-${taskId}`, projectId: 'p1', taskId, agentId: 'bot', body: {}, now: clock.now() }));
  const spend = (costMicros: number, day = utcDay(clock.now())) =>
    usage.book({ projectId: 'p1', runId: 'r', agentId: 'bot', day, increase: { inputTokens: 0, outputTokens: 0, costMicros } });
  return { clock, runs, usage, service: new BudgetService(runs, usage, clock), open, spend };
}

describe('BudgetService', () => {
  it("refuses claims while today's cost is at or above the budget; no budget never refuses", async () => {
    const { service, usage, spend, clock } = setUp();
    await spend(5000);
    await expect(service.assertOpen('p1')).resolves.toBeUndefined();
    usage.budgets.set('p1', 5000);
    expect(await refusalCode(service.assertOpen('p1'))).toBe('run.budget_spent');
    expect(await service.spent('p1')).toBe(true);
    // A new UTC day starts at zero.
    clock.advance(60 * 60_000);
    expect(await service.spent('p1')).toBe(false);
  });

  it('asks running runs with no word pending to pause, each with a board ring, except the one held', async () => {
    const { service, runs, open } = setUp();
    const [a, b, c] = [open('t1'), open('t2'), open('t3')];
    c.command('pause', { id: 'ann', name: 'Ann' }, new Date());
    runs.put(c);
    const events = await service.pauseRunning('p1', b.id);
    expect(events).toEqual([{ type: 'notice', change: { projectId: 'p1', scope: 'board', taskId: 't1', clientId: null } }]);
    expect((await runs.find('p1', a.id))?.control).toBe('pause');
    expect((await runs.find('p1', b.id))?.control).toBeNull();
  });
});
