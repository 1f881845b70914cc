import { BackgroundWork, NoMetrics } from '@board/kernel';
import { NOTIFICATION_LIFETIME_MS } from '@board/notifications';
import { HeldCalls, turnsUntil, stopWaitsFor } from '../../../../test/support/held-calls';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryNotificationRepository } from '../../../../test/support/in-memory/notifications';
import { NotificationRetentionSweeper } from './notification-retention.sweeper';

// The sweeper's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));
// The inbox's read model is not used here: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

/** Each batch waits for the spec. */
class HeldPurges extends InMemoryNotificationRepository {
  readonly held = new HeldCalls();

  override async purgeBatch(before: Date, limit: number): Promise<number> {
    await this.held.hold();
    return super.purgeBatch(before, limit);
  }
}

describe('NotificationRetentionSweeper, stopping', () => {
  it('waits for the batch under way, then ends the sweep there; no sweep starts after', async () => {
    const clock = new SteppedClock();
    const notifications = new HeldPurges();
    const old = new Date(clock.now().getTime() - NOTIFICATION_LIFETIME_MS - 1);
    for (let i = 0; i < 25; i++) {
      notifications.rows.push({ id: `n${i}`, kind: 'mention', text: 'hi', userId: 'u', createdAt: old, readAt: null, actor: null, task: { id: 't', key: 'K-1', title: 'T' }, project: { id: 'p', key: 'K', name: 'P' } });
    }
    const inline: BackgroundWork = { run: (work) => work() };
    const sweeper = new NotificationRetentionSweeper(notifications, clock, inline, new NoMetrics());
    const sweep = sweeper.sweep(10);
    await turnsUntil(() => notifications.held.waitingNow === 1);
    await stopWaitsFor(() => sweeper.onModuleDestroy(), () => notifications.held.release());
    await expect(sweep).resolves.toBe(10);
    expect(notifications.held.calls).toBe(1);
    expect(notifications.rows).toHaveLength(15);
    await expect(sweeper.sweep(10)).resolves.toBe(0);
    expect(notifications.held.calls).toBe(1);
  });
});
