/**
 * How long a shutdown gives a pass under way to end once told to stop: a webhook try's own answer
 * limit (HttpWebhookSender), and far more than a sweep's batch (one short statement) or a bucket
 * delete takes while the database and the bucket answer.
 */
export const PASS_STOP_WAIT_MS = 5_000;

/**
 * The passes a background worker has under way (a sweep, a drain of an outbox), so that its stop
 * can wait for them. Nest closes the pools only after every module's `onModuleDestroy`
 * (DatabaseLifecycle closes them in `onApplicationShutdown`), so a worker whose destroy awaits
 * `stop` never has a pass cut by a closed pool ("Cannot use a pool after calling end") with its
 * work half done — a delivery or a mail claimed but not marked, left to the lease.
 *
 * Once stopped it starts no pass (a timer of @nestjs/schedule still fires until its
 * `beforeApplicationShutdown`, after every destroy), and those under way see `stopped` and end
 * between their batches. A pass that does not end in time is cut (`cut`): what it still has under
 * way (a webhook try) gives up and leaves its claim to be taken again.
 */
export class RunningPasses {
  private readonly underWay = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly cutting = new AbortController();

  /** Whether the stop has begun: a pass claims nothing more and ends after the batch it is on. */
  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Aborted when the stop can wait no longer: a send still under way stops (its claim goes back). */
  get cut(): AbortSignal {
    return this.cutting.signal;
  }

  /**
   * Runs `pass` (at once: a worker that marks itself busy inside it is busy on return) and keeps it
   * until it settles; once stopped, starts nothing and answers `idle`.
   */
  run<T>(pass: () => Promise<T>, idle: T): Promise<T> {
    if (this.stopped) return Promise.resolve(idle);
    let running: Promise<T>;
    try {
      running = pass();
    } catch (error) {
      running = Promise.reject(error);
    }
    const kept: Promise<void> = running.then(
      () => undefined,
      () => undefined,
    );
    this.underWay.add(kept);
    void kept.finally(() => this.underWay.delete(kept));
    return running;
  }

  /**
   * Stops: no pass starts any more, and those under way are told. Answers once they have ended,
   * or after `waitMs`; with `cutWaitMs`, a pass still under way then is cut and given that much
   * more. Answers whether they all ended (a pass left over goes on and may fail on the closed
   * pool; what it claimed is taken again once this instance has left).
   */
  async stop(waitMs: number, cutWaitMs = 0): Promise<boolean> {
    this.stopping.abort();
    if (await this.ended(waitMs)) return true;
    if (cutWaitMs <= 0) return false;
    this.cutting.abort();
    return this.ended(cutWaitMs);
  }

  private async ended(waitMs: number): Promise<boolean> {
    if (this.underWay.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false)));
    try {
      return await Promise.race([Promise.all([...this.underWay]).then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
