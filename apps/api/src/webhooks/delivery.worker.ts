import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { setMaxListeners } from 'node:events';
import { filter, Subscription } from 'rxjs';
import { BackgroundWork, Clock, DeliveryOutcome, Liveness, Metrics, NoticeFeed, ReplicaReads } from '@board/kernel';
import { afterTry, DeliveryStatus, DueDelivery, WebhookRepository, WebhookSender } from '@board/webhooks';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';

const BATCH = 50;
/** How long a live instance may hold a claimed delivery; one that dies gives it up much sooner (`Liveness`). */
const LEASE_MS = 30_000;
const PARALLEL = 16;
/** A try's outcome by the status it leaves the delivery in. */
const OUTCOMES: Record<DeliveryStatus, DeliveryOutcome> = { delivered: 'delivered', pending: 'retry', dropped: 'dropped' };
/** How long a stop waits, once it has cut the tries still under way, for the pass to end (it records none of them). */
const CUT_WAIT_MS = 1_000;

/**
 * Drains the delivery outbox: woken at commit by a notice, every second for retries that came
 * due, and when another instance is found dead. Several instances share the work without sending
 * one delivery twice at once; a delivery whose sender died goes out again from another instance,
 * with the same id, within seconds (only the ones it had under way can reach a receiver twice).
 * A stop starts no try and waits for those under way to be recorded (each waits at most the
 * sender's answer limit); one still under way past that is cut, recorded nowhere, and goes out
 * again from another instance once this one has left (or after the lease).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('webhooks');
  private running: Promise<number> | null = null;
  private again = false;
  private subscription?: Subscription;
  private unsubscribeTakeover?: () => void;
  private readonly passes = new RunningPasses();

  constructor(
    private readonly store: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly listener: NoticeFeed,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
    private readonly liveness: Liveness,
    private readonly reads: ReplicaReads,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.listener.stream.pipe(filter((n) => n.type === 'webhook')).subscribe(() => void this.kick());
    this.unsubscribeTakeover = this.liveness.onTakeover(() => void this.kick());
  }

  async onModuleDestroy(): Promise<void> {
    this.subscription?.unsubscribe();
    this.unsubscribeTakeover?.();
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS, CUT_WAIT_MS))) this.logger.warn('a delivery pass did not end in time at shutdown: the deliveries it holds are tried again once this instance has left');
  }

  @Interval('webhook-deliveries', 1000)
  poll(): void {
    void this.kick();
  }

  /** Runs one drain unless one is under way (then it runs again right after). */
  kick(): Promise<number> {
    if (this.passes.stopped) return Promise.resolve(0);
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
        if (this.again && !this.passes.stopped) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  /**
   * Tries every due delivery once; answers how many were tried. On the background connections,
   * so deliveries go on while requests fill their pool. A stop waits for it.
   */
  drain(): Promise<number> {
    return this.passes.run(() => this.background.run(() => this.drainAll()), 0);
  }

  private async drainAll(): Promise<number> {
    let tried = 0;
    for (;;) {
      const holder = this.liveness.claimant();
      if (holder === null || this.passes.stopped) return tried;
      const due = await this.store.claimDue(this.clock.now(), BATCH, LEASE_MS, holder);
      if (due.length === 0) return tried;
      // A receiver reads the feed when a delivery arrives: with read replicas, not before a read
      // would find the line there (at once without them; see docs/operating.md › Read replicas).
      await this.reads.settled();
      this.metrics.jobsLeased('webhook-delivery', due.length);
      // A try stops when the claim may have gone to another instance, or when a stop can wait no
      // longer. Every try of the batch listens to it: no listener limit, as for the liveness signal.
      const signal = AbortSignal.any([this.liveness.signalOf(holder), this.passes.cut]);
      setMaxListeners(0, signal);
      for (let i = 0; i < due.length; i += PARALLEL) await Promise.all(due.slice(i, i + PARALLEL).map((d) => this.attempt(d, holder, signal)));
      tried += due.length;
      const touched = new Map(due.map((d) => [d.webhookId, d.projectId]));
      for (const [webhookId, projectId] of touched) await this.store.prune(projectId, webhookId);
      if (due.length < BATCH) return tried;
    }
  }

  /**
   * One try, unless the claim was lost (the instance that takes it over sends and records it) or a
   * stop has begun (the claim goes back when this instance leaves). A try cut short by `signal` is
   * recorded nowhere: it is the next holder's to send.
   */
  private async attempt(d: DueDelivery, holder: string, signal: AbortSignal): Promise<void> {
    if (!this.liveness.holds(holder) || this.passes.stopped) return;
    const result = await this.sender.send({ url: d.url, secret: d.secret, deliveryId: d.id, body: d.body, now: this.clock.now(), signal });
    if (signal.aborted) return;
    const now = this.clock.now();
    const next = afterTry(d.tries + 1, result.ok, now);
    this.metrics.deliveryTried(OUTCOMES[next.status]);
    await this.store.finishTry(d, { ...next, code: result.status, error: result.ok ? null : result.error, now });
  }
}
