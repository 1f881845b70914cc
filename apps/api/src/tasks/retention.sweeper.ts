import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock, MINUTE } from '@board/kernel';
import { TaskRepository, TypeormThrottleStore } from '@board/persistence';
import { DELETION_WINDOW_MS } from '@board/tasks';
import { THROTTLE_WINDOW_MS } from '@board/accounts';

/**
 * Removes for good what has outlived its window: deleted tasks past goesAt (with their values,
 * checklist, comments, links and history) and stale throttle counters. Rows are claimed with
 * SKIP LOCKED, so several instances sweeping at once never trip over each other.
 */
@Injectable()
export class RetentionSweeper {
  private readonly logger = new Logger('retention');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly throttle: TypeormThrottleStore,
    private readonly clock: Clock,
  ) {}

  @Interval('retention', 10 * MINUTE)
  async tick(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }

  /** One full pass; answers how many tasks went for good. */
  async sweep(): Promise<number> {
    const now = this.clock.now().getTime();
    let removed = 0;
    for (let batch = await this.tasks.purgeDeleted(new Date(now - DELETION_WINDOW_MS)); batch > 0; batch = await this.tasks.purgeDeleted(new Date(now - DELETION_WINDOW_MS))) {
      removed += batch;
    }
    await this.throttle.prune(new Date(now - THROTTLE_WINDOW_MS));
    return removed;
  }
}
