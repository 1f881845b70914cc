import { BackgroundWork, NoMetrics } from '@board/kernel';
import { HeldCalls, turnsUntil, stopWaitsFor } from '../../../../test/support/held-calls';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryInviteMailRepository } from '../../../../test/support/in-memory/invite-mail-repository';
import { InMemoryTaskRepository, InMemoryTaskStore } from '../../../../test/support/in-memory/tasks';
import { InMemoryThrottleRepository } from '../../../../test/support/in-memory/throttle-repository';
import { RetentionSweeper } from './retention.sweeper';

// The sweeper's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));

/** A backlog that never runs out: each batch removes five tasks for good, once the spec lets it. */
class HeldPurges extends InMemoryTaskRepository {
  readonly held = new HeldCalls();

  override async purgeDeletedBatch(): Promise<number> {
    await this.held.hold();
    return 5;
  }
}

describe('RetentionSweeper, stopping', () => {
  it('waits for the batch under way, then ends the sweep there; no sweep starts after', async () => {
    const tasks = new HeldPurges(new InMemoryTaskStore());
    const inline: BackgroundWork = { run: (work) => work() };
    const sweeper = new RetentionSweeper(tasks, new InMemoryThrottleRepository(), new InMemoryInviteMailRepository(), new SteppedClock(), inline, new NoMetrics());
    const sweep = sweeper.sweep();
    await turnsUntil(() => tasks.held.waitingNow === 1);
    tasks.held.release();
    await turnsUntil(() => tasks.held.waitingNow === 1);
    await stopWaitsFor(() => sweeper.onModuleDestroy(), () => tasks.held.release());
    await expect(sweep).resolves.toBe(10);
    expect(tasks.held.calls).toBe(2);
    await expect(sweeper.sweep()).resolves.toBe(0);
    expect(tasks.held.calls).toBe(2);
  });
});
