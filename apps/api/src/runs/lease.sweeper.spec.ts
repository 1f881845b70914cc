import { BackgroundWork, NoMetrics } from '@board/kernel';
import { HeldCalls, turnsUntil, stopWaitsFor } from '../../../../test/support/held-calls';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryRunQuery } from '../../../../test/support/in-memory/run-query';
import { InMemoryRunRepository } from '../../../../test/support/in-memory/run-repository';
import { InMemoryUsageRepository } from '../../../../test/support/in-memory/usage-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { BudgetService } from './budget.service';
import { LeaseSweeper } from './lease.sweeper';
import { RunsService } from './runs.service';

// The sweeper's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));
// The read models' library (typeorm, pg) stays unloaded: the service gets typed fakes.
jest.mock('@board/persistence', () => ({}));

/** The sweep's first look waits for the spec. */
class HeldRuns extends InMemoryRunRepository {
  readonly held = new HeldCalls();

  override async anyOverdue(now: Date, projectId: string | null): Promise<boolean> {
    await this.held.hold();
    return super.anyOverdue(now, projectId);
  }
}

describe('LeaseSweeper, stopping', () => {
  it('waits for the sweep under way; no sweep starts after', async () => {
    const clock = new SteppedClock();
    const runs = new HeldRuns();
    const usage = new InMemoryUsageRepository();
    const service = new RunsService(runs, new InMemoryRunQuery(runs), new RecordingUnitOfWork(), clock, usage, new BudgetService(runs, usage, clock));
    const inline: BackgroundWork = { run: (work) => work() };
    const sweeper = new LeaseSweeper(service, inline, new NoMetrics());
    let swept = false;
    const tick = sweeper.tick().then(() => (swept = true));
    await turnsUntil(() => runs.held.waitingNow === 1);
    await stopWaitsFor(() => sweeper.onModuleDestroy(), () => runs.held.release());
    expect(swept).toBe(true);
    await tick;
    await sweeper.tick();
    expect(runs.held.calls).toBe(1);
  });
});
