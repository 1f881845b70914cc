import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { InstanceRegistry, Liveness } from '@board/kernel';
import { AppConfig } from '../config/app-config';

/**
 * Beats for this instance every `SERVICE_INSTANCE_BEAT_MS`, so that what it claims stays its own,
 * and removes the instances that stopped beating for `SERVICE_INSTANCE_DEAD_MS`, telling its
 * workers to take over what those held. One beat per instance covers every claim it holds, so no
 * job renews leases of its own.
 *
 * When its own beats fail for nearly that long, the instance gives its claims up before anyone
 * may take them: it aborts the sends under way, starts nothing more under that holder id, and
 * enters afresh under a new one once the database answers again.
 */
@Injectable()
export class LivenessWorker extends Liveness implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('liveness');
  private readonly beatMs: number;
  private readonly deadMs: number;
  /** How long before the others may take over this instance's claims it gives them up itself. */
  private readonly marginMs: number;
  private readonly name = `${hostname()} ${process.pid}`;
  private readonly listeners = new Set<() => void>();
  private id = randomUUID();
  private entered = false;
  private lost = everyonesController();
  private lapse?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private beating: Promise<void> | null = null;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly registry: InstanceRegistry,
    config: AppConfig,
  ) {
    super();
    this.beatMs = config.SERVICE_INSTANCE_BEAT_MS;
    this.deadMs = config.SERVICE_INSTANCE_DEAD_MS;
    this.marginMs = Math.min(this.beatMs, this.deadMs / 4);
  }

  /** Enters before any worker starts, so the first claims already name a live instance. */
  async onModuleInit(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.beatMs);
    this.timer.unref();
  }

  /**
   * Leaves on a clean stop: whatever it still held is free for the others at once. Before the
   * application's shutdown, not in it: every worker has stopped by then (each waits for its pass
   * in `onModuleDestroy`, which Nest runs for every module first), and the pools, which close in
   * `onApplicationShutdown` (DatabaseLifecycle, in the root module, whose hooks Nest runs before
   * this global module's), are still open for the leave.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopBeating();
    await this.beating;
    if (this.entered) await this.registry.leave(this.id).catch(() => undefined);
    this.entered = false;
  }

  /** Stops beating without leaving, as a killed instance would (the tests of takeover). */
  stopBeating(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.lapse);
  }

  claimant(): string | null {
    return this.entered && !this.stopped ? this.id : null;
  }

  holds(holder: string): boolean {
    return holder === this.claimant();
  }

  signalOf(holder: string): AbortSignal {
    return holder === this.id ? this.lost.signal : AbortSignal.abort();
  }

  onTakeover(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.beating ??= this.beat().finally(() => (this.beating = null));
    return this.beating;
  }

  private async beat(): Promise<void> {
    const id = this.id;
    const sent = performance.now();
    try {
      if (!this.entered) {
        await this.registry.enter(id, this.name, this.deadMs);
        this.entered = true;
      } else {
        const { alive, dead } = await this.registry.beat(id, this.deadMs);
        // Given up while the beat was on its way: its leave, queued behind this beat on the one
        // connection, removes the row after it.
        if (id !== this.id) return;
        if (!alive) {
          this.logger.warn('this instance was taken for dead; what it held went to the others');
          return this.giveUp();
        }
        if (dead > 0) for (const listener of this.listeners) listener();
      }
      this.failing = false;
      if (this.stopped) return;
      clearTimeout(this.lapse);
      this.lapse = setTimeout(() => this.giveUp(), sent + this.deadMs - this.marginMs - performance.now());
      this.lapse.unref();
    } catch (error) {
      if (!this.failing) this.logger.warn(`a beat failed: ${(error as Error).message}`);
      this.failing = true;
    }
  }

  /**
   * Claims made under the current id are no longer this instance's: stop, free them (or let the
   * row run out when the database does not answer), and enter anew later.
   */
  private giveUp(): void {
    clearTimeout(this.lapse);
    this.lost.abort();
    if (this.entered) void this.registry.leave(this.id).catch(() => undefined);
    this.id = randomUUID();
    this.entered = false;
    this.lost = everyonesController();
  }
}

/** A controller whose signal every send under way listens to at once (no listener limit). */
function everyonesController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
