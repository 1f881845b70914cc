import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { BackgroundWork, Clock, NoticeFeed } from '@board/kernel';
import { StreamAccessQuery, StreamCredential } from '@board/persistence';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';
import type { StreamSink } from './stream.service';

/** How often every open stream's credential is checked again (expiry, and a net under lost notices). */
export const ACCESS_RECHECK_MS = 1000;

/** What a stream sends through: lines pass, wait or are dropped by the stream's access. */
export interface StreamGate {
  deliver(bytes: Buffer): void;
  close(): void;
}

/** One open stream as the watch sees it, and the gate its lines pass. */
class Watched implements StreamGate {
  /** Lines held back while the stream's access is in doubt; null when it flows. */
  held: Buffer[] | null = null;
  /** Number of the last access notice it must be checked after (0: none pending). */
  needs = 0;

  constructor(
    private readonly watch: StreamAccessWatch,
    readonly credential: StreamCredential,
    /** The credential as one string: streams that share it share its check. */
    readonly key: string,
    readonly userId: string,
    /** The session's expiry as last read (null: a token). */
    public expiresAt: Date | null,
    readonly out: StreamSink,
  ) {}

  deliver(bytes: Buffer): void {
    this.watch.pass(this, bytes);
  }

  close(): void {
    this.watch.forget(this);
  }
}

/**
 * Ends a stream within a second or so of its credential losing access to the project
 * (decisions.md › Security), on every instance. Database triggers ring `access` at the COMMIT
 * of any delete of a membership, session, agent token or project; the listener hands notices
 * over in commit order, so on such a notice the streams it may concern hold their lines until
 * one query has re-checked every open stream of this instance: a stream that lost access ends
 * without a line written after the change, the others get their held lines. The same check
 * runs every second for expired sessions and anything a lost notice would have missed. A stop
 * waits for the check under way; streams in doubt then stay held until the shutdown ends them.
 */
@Injectable()
export class StreamAccessWatch implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('stream');
  private readonly watched = new Set<Watched>();
  private notices?: Subscription;
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  /** When the last access notice arrived (ms): a stream whose credential was checked before it is checked again. */
  private lastNoticeAt = 0;
  private running = false;
  private again = false;
  private readonly passes = new RunningPasses();

  constructor(
    private readonly listener: NoticeFeed,
    private readonly queries: StreamAccessQuery,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
  ) {}

  onModuleInit(): void {
    this.notices = this.listener.stream.subscribe((notice) => {
      if (notice.type === 'access') this.doubt(notice.payload);
      // Notices may have been lost while the listener was away.
      else if (notice.type === 'reconnected') this.doubt({});
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.notices?.unsubscribe();
    this.stopTimer();
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS))) this.logger.warn('a stream access check did not end in time at shutdown');
  }

  /** `checkedAt` (ms): when the request's credential was checked, before the stream was open to notices. */
  watch(credential: StreamCredential, userId: string, expiresAt: Date | null, checkedAt: number, out: StreamSink): StreamGate {
    const w = new Watched(this, credential, `${credential.via} ${credential.digest} ${credential.projectId ?? ''}`, userId, expiresAt, out);
    this.watched.add(w);
    // A notice that arrived between the credential check and now found no stream to hold.
    if (this.lastNoticeAt >= checkedAt) {
      w.needs = ++this.seq;
      w.held = [];
      this.kick();
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.kick(), ACCESS_RECHECK_MS);
      this.timer.unref();
    }
    return w;
  }

  /** A line of `w`: passes, waits while its access is in doubt, or ends the stream past its session's expiry. */
  pass(w: Watched, bytes: Buffer): void {
    if (!this.watched.has(w)) return;
    if (w.expiresAt && this.clock.now() >= w.expiresAt) return this.end(w);
    if (w.held) w.held.push(bytes);
    else w.out.next(bytes);
  }

  /** Holds the streams a notice may concern and checks them (an empty notice concerns all). */
  private doubt(notice: { projectId?: string; userId?: string }): void {
    const n = ++this.seq;
    this.lastNoticeAt = Date.now();
    let any = false;
    for (const w of this.watched) {
      if (notice.userId && notice.userId !== w.userId) continue;
      if (notice.projectId && notice.projectId !== w.credential.projectId) continue;
      w.needs = n;
      w.held ??= [];
      any = true;
    }
    if (any) this.kick();
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    void this.passes.run(() => this.check(), undefined);
  }

  private async check(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        // Every notice up to here was sent at a COMMIT that precedes this query: it sees them all.
        const upTo = this.seq;
        const batch = [...this.watched];
        if (batch.length === 0) break;
        // One row per credential: the tabs of one session ask once.
        const position = new Map<string, number>();
        const credentials: StreamCredential[] = [];
        for (const w of batch) {
          if (position.has(w.key)) continue;
          position.set(w.key, credentials.length);
          credentials.push(w.credential);
        }
        let allowed: Map<number, Date | null>;
        try {
          // On the background connections: a stream that lost its access ends even while
          // requests fill their pool.
          allowed = await this.background.run(() => this.queries.stillAllowed(credentials, this.clock.now()));
        } catch (error) {
          // Held streams stay held; the next tick asks again.
          this.logger.warn(`stream access check failed: ${(error as Error).message}`);
          break;
        }
        for (const w of batch) {
          if (!this.watched.has(w)) continue;
          const i = position.get(w.key)!;
          if (!allowed.has(i)) {
            this.end(w);
            continue;
          }
          w.expiresAt = allowed.get(i) ?? null;
          if (w.needs > upTo) continue;
          w.needs = 0;
          const held = w.held;
          w.held = null;
          for (const bytes of held ?? []) w.out.next(bytes);
        }
      } while (this.again && !this.passes.stopped);
    } finally {
      this.running = false;
    }
  }

  private end(w: Watched): void {
    this.forget(w);
    w.out.complete();
  }

  forget(w: Watched): void {
    this.watched.delete(w);
    if (this.watched.size === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
