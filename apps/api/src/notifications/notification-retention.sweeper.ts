import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Clock, Metrics, MINUTE } from '@board/kernel';
import { NOTIFICATION_LIFETIME_MS, NotificationRepository } from '@board/notifications';

/** Rows one batch removes: short statements, so a large backlog never holds locks for long. */
export const PURGE_BATCH = 1000;

/**
 * Removes notifications older than 90 days, in batches, on the background connections. Each
 * batch claims its rows with SKIP LOCKED, so sweeps of several instances at once never remove a
 * row twice nor wait on each other.
 */
@Injectable()
export class NotificationRetentionSweeper {
  private readonly logger = new Logger('notifications');

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
  ) {}

  @Interval('notification-retention', 10 * MINUTE)
  async tick(): Promise<void> {
    try {
      await this.metrics.sweep('notification-retention', () => this.sweep());
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }

  /** One full pass; answers how many went. */
  sweep(batch = PURGE_BATCH): Promise<number> {
    return this.background.run(async () => {
      const before = new Date(this.clock.now().getTime() - NOTIFICATION_LIFETIME_MS);
      let removed = 0;
      for (let n = await this.notifications.purgeBatch(before, batch); n > 0; n = await this.notifications.purgeBatch(before, batch)) removed += n;
      return removed;
    });
  }
}
