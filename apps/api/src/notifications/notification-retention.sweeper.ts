import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Clock, Metrics, MINUTE } from '@board/kernel';
import { NOTIFICATION_LIFETIME_MS, NotificationRepository } from '@board/notifications';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';

/** Rows one batch removes: short statements, so a large backlog never holds locks for long. */
export const PURGE_BATCH = 1000;

/**
 * Removes notifications older than 90 days, in batches, on the background connections. Each
 * batch claims its rows with SKIP LOCKED, so sweeps of several instances at once never remove a
 * row twice nor wait on each other. A stop waits for the sweep under way, which ends after its batch.
 */
@Injectable()
export class NotificationRetentionSweeper implements OnModuleDestroy {
  private readonly logger = new Logger('notifications');
  private readonly passes = new RunningPasses();

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
  ) {}

  async onModuleDestroy(): Promise<void> {
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS))) this.logger.warn('a notification retention sweep did not end in time at shutdown');
  }

  @Interval('notification-retention', 10 * MINUTE)
  async tick(): Promise<void> {
    try {
      await this.metrics.sweep('notification-retention', () => this.sweep());
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }

  /** One full pass; answers how many went. A stop waits for it. */
  sweep(batch = PURGE_BATCH): Promise<number> {
    return this.passes.run(() => this.background.run(() => this.pass(batch)), 0);
  }

  private async pass(batch: number): Promise<number> {
    const before = new Date(this.clock.now().getTime() - NOTIFICATION_LIFETIME_MS);
    const purge = async () => (this.passes.stopped ? 0 : this.notifications.purgeBatch(before, batch));
    let removed = 0;
    for (let n = await purge(); n > 0; n = await purge()) removed += n;
    return removed;
  }
}
