import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Clock, Liveness, Metrics, MINUTE } from '@board/kernel';
import { BucketCleanup, ObjectStore, PENDING_LIFETIME_MS } from '@board/files';
import { AppConfig } from '../config/app-config';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';

const BATCH = 100;
/**
 * How long a claimed key is in a live instance's hands; a key whose delete failed comes due again
 * after it. An instance that dies gives its keys up much sooner (`Liveness`).
 */
const LEASE_MS = 5 * MINUTE;

/**
 * Keeps the bucket in step with the table: removes uploads nobody confirmed within an hour, then
 * deletes from the bucket every queued key (files deleted, expired, or gone with a task the
 * retention sweep removed for good, or with a deleted project). Safe on several instances at
 * once: rows and keys are claimed with SKIP LOCKED, and deleting a key twice is harmless. When
 * another instance is found dead, a sweep runs at once to take over the keys it held. A stop
 * waits for the sweep under way, which ends after its batch.
 */
@Injectable()
export class FilesSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('files');
  private readonly enabled: boolean;
  private unsubscribeTakeover?: () => void;
  private readonly passes = new RunningPasses();

  constructor(
    private readonly cleanup: BucketCleanup,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
    private readonly liveness: Liveness,
    config: AppConfig,
  ) {
    this.enabled = Boolean(config.S3_BUCKET);
  }

  onApplicationBootstrap(): void {
    this.unsubscribeTakeover = this.liveness.onTakeover(() => void this.tick());
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribeTakeover?.();
    // Before FilesModule destroys the bucket's client (a module's own hook runs after its providers').
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS))) this.logger.warn('a files sweep did not end in time at shutdown: the keys it holds are deleted by a later sweep');
  }

  @Interval('files', MINUTE)
  async tick(): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.metrics.sweep('files', () => this.sweep());
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }

  /**
   * One full pass, on the background connections; answers how many unconfirmed uploads went and
   * how many keys left the bucket. A stop waits for it.
   */
  sweep(): Promise<{ expired: number; deleted: number }> {
    return this.passes.run(() => this.background.run(() => this.pass()), { expired: 0, deleted: 0 });
  }

  private async pass(): Promise<{ expired: number; deleted: number }> {
    const before = new Date(this.clock.now().getTime() - PENDING_LIFETIME_MS);
    let expired = 0;
    const batch = async () => (this.passes.stopped ? 0 : this.cleanup.expirePending(before, BATCH));
    for (let n = await batch(); n > 0; n = await batch()) expired += n;
    let deleted = 0;
    for (;;) {
      const holder = this.liveness.claimant();
      if (holder === null || this.passes.stopped) break;
      const now = this.clock.now();
      const keys = await this.cleanup.claim(now, new Date(now.getTime() + LEASE_MS), BATCH, holder);
      if (keys.length === 0) break;
      this.metrics.jobsLeased('bucket-key', keys.length);
      deleted += await this.removeNow(keys);
    }
    return { expired, deleted };
  }

  /**
   * Deletes a key from the bucket now if it answers, keeping whatever queue entry it has (an
   * upload key stays queued until its URL has closed). A failure is logged; the queue or the
   * sweep of uploads deals with it.
   */
  async deleteNow(key: string): Promise<void> {
    try {
      await this.store.delete(key);
    } catch (error) {
      this.logger.warn(`a bucket delete failed, left to the sweep: ${(error as Error)?.message}`);
    }
  }

  /** Deletes queued keys from the bucket and forgets those that went; the others stay queued. Answers how many went. */
  async removeNow(keys: readonly string[]): Promise<number> {
    const results = await Promise.allSettled(keys.map((key) => this.store.delete(key)));
    const gone = keys.filter((_, i) => results[i].status === 'fulfilled');
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) this.logger.warn(`${keys.length - gone.length} bucket delete(s) failed, kept for a later try: ${(failed.reason as Error)?.message}`);
    await this.cleanup.forget(gone);
    return gone.length;
  }
}
