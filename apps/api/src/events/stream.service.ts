import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { concat, filter, interval, map, merge, Observable, of, ReplaySubject, takeUntil } from 'rxjs';
import { Notice, NoticeFeed, ReplicaReads } from '@board/kernel';
import { StreamCredential } from '@board/persistence';
import { StreamAccessWatch } from './stream-access.watch';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_VERSION } from '../system/version';

export const PING_MS = 25_000;
export const RETRY_MS = 3000;

/** One server-sent event as it goes on the wire. */
export type StreamLine = { event: string; data: unknown } | { comment: string } | { retry: number };

export function encode(line: StreamLine): string {
  if ('retry' in line) return `retry: ${line.retry}\n\n`;
  if ('comment' in line) return `: ${line.comment}\n\n`;
  return `event: ${line.event}\ndata: ${JSON.stringify(line.data)}\n\n`;
}

/** Answers with server-sent events: the headers every stream sends, then `lines` until either side ends. */
export function sendEvents(request: FastifyRequest, reply: FastifyReply, lines: Observable<StreamLine>): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Service-Version': SERVICE_VERSION,
  });
  raw.flushHeaders?.();
  const subscription = lines.subscribe({
    next: (line) => raw.write(encode(line)),
    complete: () => raw.end(),
    error: () => raw.end(),
  });
  request.raw.on('close', () => subscription.unsubscribe());
}

/**
 * A project's change stream as one RxJS Observable per subscriber: retry and ready first, then
 * changes and presence for that project from the instance's listener, ready again after the
 * listener had to reconnect, and a ping comment every 25 seconds.
 */
@Injectable()
export class StreamService implements BeforeApplicationShutdown {
  /** Replays to late subscribers too: a stream that opens while the app shuts down ends at once instead of holding it. */
  private readonly closing = new ReplaySubject<void>(1);

  constructor(
    private readonly listener: NoticeFeed,
    private readonly access: StreamAccessWatch,
    private readonly reads: ReplicaReads,
  ) {}

  /** A client's stream: `subscribe` behind its credential, ended once that credential loses access to the project. */
  open(credential: StreamCredential & { projectId: string }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): Observable<StreamLine> {
    return this.gated(credential, userId, expiresAt, checkedAt, this.subscribe(credential.projectId, pingMs));
  }

  /** A person's own stream (`personal`) behind their session, ended once the session ends. */
  openPersonal(credential: StreamCredential & { projectId: null }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): Observable<StreamLine> {
    return this.gated(credential, userId, expiresAt, checkedAt, this.personal(userId, pingMs));
  }

  private gated(credential: StreamCredential, userId: string, expiresAt: Date | null, checkedAt: number, source: Observable<StreamLine>): Observable<StreamLine> {
    return new Observable<StreamLine>((out) => {
      const gate = this.access.watch(credential, userId, expiresAt, checkedAt, out);
      const lines = source.subscribe({
        next: (line) => gate.deliver(line),
        complete: () => out.complete(),
        error: (error) => out.error(error),
      });
      return () => {
        gate.close();
        lines.unsubscribe();
      };
    });
  }

  subscribe(projectId: string, pingMs = PING_MS): Observable<StreamLine> {
    const notices = this.listener.stream;
    const live = merge(
      notices.pipe(
        filter((n) => n.type === 'change' && n.payload.projectId === projectId),
        map((n): StreamLine => ({ event: 'change', data: 'payload' in n ? n.payload : {} })),
      ),
      notices.pipe(
        filter((n) => n.type === 'presence' && n.payload.projectId === projectId),
        map((n): StreamLine => ({ event: 'presence', data: 'payload' in n ? n.payload : {} })),
      ),
    );
    return this.framed(live, pingMs);
  }

  /** A person's new notifications, from every instance: `{ id, kind, projectId, taskId }` each. */
  personal(userId: string, pingMs = PING_MS): Observable<StreamLine> {
    const live = this.listener.stream.pipe(
      filter((n) => n.type === 'notification' && n.payload.userId === userId),
      map((n): StreamLine => {
        const { id, kind, projectId, taskId } = (n as Extract<Notice, { type: 'notification' }>).payload;
        return { event: 'notification', data: { id, kind, projectId, taskId } };
      }),
    );
    return this.framed(live, pingMs);
  }

  /** Retry and ready first, then the live lines, ready again after the listener reconnected, and pings. */
  private framed(live: Observable<StreamLine>, pingMs: number): Observable<StreamLine> {
    const notices = this.listener.stream;
    const all = merge(
      live,
      // Notices may have been missed while the listener was away: every client must re-read.
      notices.pipe(
        filter((n) => n.type === 'reconnected'),
        map((): StreamLine => ({ event: 'ready', data: {} })),
      ),
      interval(pingMs).pipe(map((): StreamLine => ({ comment: 'ping' }))),
    );
    const lines = this.reads.enabled ? this.readyOnceSettled(all) : concat(of<StreamLine[]>({ retry: RETRY_MS }, { event: 'ready', data: {} }), all);
    return lines.pipe(takeUntil(this.closing));
  }

  /**
   * With read replicas, `ready` waits until a re-read would show every write committed before the
   * subscription (ReplicaReads.settled: a few milliseconds, at most the bound): the client re-reads
   * on it, and a change made before it subscribed has no notice of its own to catch up with.
   * Lines that arrive meanwhile are held and follow the ready, as they would without replicas.
   */
  private readyOnceSettled(live: Observable<StreamLine>): Observable<StreamLine> {
    return new Observable<StreamLine>((out) => {
      out.next({ retry: RETRY_MS });
      let held: StreamLine[] | null = [];
      const subscription = live.subscribe({
        next: (line) => (held ? held.push(line) : out.next(line)),
        error: (error) => out.error(error),
        complete: () => out.complete(),
      });
      void this.reads.settled().then(() => {
        if (out.closed) return;
        out.next({ event: 'ready', data: {} });
        const lines = held ?? [];
        held = null;
        for (const line of lines) out.next(line);
      });
      return () => subscription.unsubscribe();
    });
  }

  /** Open streams would hold a graceful shutdown forever: end them first. */
  beforeApplicationShutdown(): void {
    this.closing.next();
    this.closing.complete();
  }
}
