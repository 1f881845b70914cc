import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

/** How long a shutdown waits for mail still on its way (the transport's own timeouts are shorter). */
export const MAIL_SHUTDOWN_WAIT_MS = 25_000;

/**
 * Mail goes out beside the answer, never in its way: a slow or broken relay neither fails a
 * request nor tells a caller more than it may know (forgot answers alike for every email; an
 * invite waits a bounded time to say whether its mail was accepted). A mail that cannot be sent
 * is logged, without its link. A shutdown waits for the mail still on its way.
 */
@Injectable()
export class BackgroundMail implements BeforeApplicationShutdown {
  private readonly log = new Logger('mail');
  private readonly pending = new Set<Promise<boolean>>();

  /** Runs `work` in the background; `what` names it in the log should it fail. */
  run(what: string, work: () => Promise<void>): void {
    void this.track(what, work);
  }

  /**
   * Runs `work` like `run`, and answers whether it succeeded within `waitMs`: true once the relay
   * accepted the mail, false when it failed or is still on its way then (it goes on in the
   * background, and a shutdown still waits for it). Never rejects: a mail never fails its caller.
   */
  async within(what: string, waitMs: number, work: () => Promise<void>): Promise<boolean> {
    const sent = this.track(what, work);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    try {
      return await Promise.race([sent, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The work, logged should it fail, kept for the shutdown until it settles; answers whether it was sent. */
  private track(what: string, work: () => Promise<void>): Promise<boolean> {
    const done: Promise<boolean> = Promise.resolve()
      .then(work)
      .then(() => true)
      .catch((error: unknown) => {
        this.log.warn(`${what} could not be sent: ${describeFailure(error)}`);
        return false;
      })
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
    return done;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, MAIL_SHUTDOWN_WAIT_MS)));
    await Promise.race([Promise.allSettled([...this.pending]), timeout]);
    clearTimeout(timer);
  }
}

/**
 * The transport's error code, the relay's answer code and the message, with anything shaped like
 * a reset token blotted out (a relay may quote what it refused).
 */
export function describeFailure(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [e?.code, e?.responseCode, typeof e?.message === 'string' ? e.message : String(error)].filter((p) => p !== undefined && p !== '');
  return parts.join(' ').replace(/svcr_[A-Za-z0-9_-]*/g, 'svcr_…').replace(/\s+/g, ' ').slice(0, 300);
}
