import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Clock, Metrics, MINUTE } from '@board/kernel';
import { DELETION_WINDOW_MS, TaskRepository } from '@board/tasks';
import { THROTTLE_WINDOW_MS, ThrottleRepository } from '@board/accounts';
import { INVITE_MAIL_WINDOW_MS, InviteMailRepository } from '@board/projects';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';

/**
 * Removes for good what has outlived its window: deleted tasks past goesAt (with their values,
 * checklist, comments, links, files and history), stale throttle counters and invite mails past their day. (A file's bucket
 * object is queued for deletion by the same transaction; the files sweep deletes it.) Rows are claimed with
 * SKIP LOCKED, but two sweeps holding different tasks still meet on the links between them (the
 * cascade deletes one link row from both ends) and can deadlock; so each batch runs in its own
 * transaction under one cluster-wide advisory lock, and sweeps on several instances take turns.
 * A stop waits for the sweep under way, which ends after its batch.
 */
@Injectable()
export class RetentionSweeper implements OnModuleDestroy {
  private readonly logger = new Logger('retention');
  private readonly passes = new RunningPasses();

  constructor(
    private readonly tasks: TaskRepository,
    private readonly throttle: ThrottleRepository,
    private readonly inviteMails: InviteMailRepository,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
  ) {}

  async onModuleDestroy(): Promise<void> {
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS))) this.logger.warn('a retention sweep did not end in time at shutdown');
  }

  @Interval('retention', 10 * MINUTE)
  async tick(): Promise<void> {
    try {
      await this.metrics.sweep('retention', () => this.sweep());
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }

  /** One full pass, on the background connections; answers how many tasks went for good. A stop waits for it. */
  sweep(): Promise<number> {
    return this.passes.run(() => this.background.run(() => this.pass()), 0);
  }

  private async pass(): Promise<number> {
    const now = this.clock.now().getTime();
    const before = new Date(now - DELETION_WINDOW_MS);
    const batch = async () => (this.passes.stopped ? 0 : this.tasks.purgeDeletedBatch(before));
    let removed = 0;
    for (let n = await batch(); n > 0; n = await batch()) removed += n;
    await this.throttle.prune(new Date(now - THROTTLE_WINDOW_MS));
    await this.inviteMails.prune(new Date(now - INVITE_MAIL_WINDOW_MS));
    return removed;
  }
}
