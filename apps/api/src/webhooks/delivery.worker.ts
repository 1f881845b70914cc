import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { filter, Subscription } from 'rxjs';
import { BackgroundWork, Clock, NoticeFeed, ReplicaReads } from '@board/kernel';
import { afterTry, DueDelivery, WebhookRepository, WebhookSender } from '@board/webhooks';

const BATCH = 50;
const LEASE_MS = 30_000;
const PARALLEL = 16;

/**
 * Drains the delivery outbox: woken at commit by a notice, and every second for retries that
 * came due. Several instances share the work without sending one delivery twice at once.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('webhooks');
  private running: Promise<number> | null = null;
  private again = false;
  private subscription?: Subscription;
  private stopped = false;

  constructor(
    private readonly store: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly listener: NoticeFeed,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly reads: ReplicaReads,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.listener.stream.pipe(filter((n) => n.type === 'webhook')).subscribe(() => void this.kick());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
  }

  @Interval('webhook-deliveries', 1000)
  poll(): void {
    void this.kick();
  }

  /** Runs one drain unless one is under way (then it runs again right after). */
  kick(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((error) => {
        this.logger.warn(`delivery pass failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  /**
   * Tries every due delivery once; answers how many were tried. On the background connections,
   * so deliveries go on while requests fill their pool.
   */
  drain(): Promise<number> {
    return this.background.run(() => this.drainAll());
  }

  private async drainAll(): Promise<number> {
    let tried = 0;
    for (;;) {
      const due = await this.store.claimDue(this.clock.now(), BATCH, LEASE_MS);
      if (due.length === 0) return tried;
      // A receiver reads the feed when a delivery arrives: with read replicas, not before a read
      // would find the line there (at once without them; see docs/operating.md › Read replicas).
      await this.reads.settled();
      for (let i = 0; i < due.length; i += PARALLEL) await Promise.all(due.slice(i, i + PARALLEL).map((d) => this.attempt(d)));
      tried += due.length;
      const touched = new Map(due.map((d) => [d.webhookId, d.projectId]));
      for (const [webhookId, projectId] of touched) await this.store.prune(projectId, webhookId);
      if (due.length < BATCH) return tried;
    }
  }

  private async attempt(d: DueDelivery): Promise<void> {
    const result = await this.sender.send({ url: d.url, secret: d.secret, deliveryId: d.id, body: d.body, now: this.clock.now() });
    const now = this.clock.now();
    const next = afterTry(d.tries + 1, result.ok, now);
    await this.store.finishTry(d, { ...next, code: result.status, error: result.ok ? null : result.error, now });
  }
}
