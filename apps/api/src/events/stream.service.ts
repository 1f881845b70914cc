import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { concat, filter, interval, map, merge, Observable, of, ReplaySubject, takeUntil } from 'rxjs';
import { Metrics, Notice, NoticeFeed, StreamKind } from '@board/kernel';
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
    private readonly metrics: Metrics,
  ) {}

  /** A client's stream: `subscribe` behind its credential, ended once that credential loses access to the project. */
  open(credential: StreamCredential & { projectId: string }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): Observable<StreamLine> {
    return this.gated('project', credential, userId, expiresAt, checkedAt, this.subscribe(credential.projectId, pingMs));
  }

  /** A person's own stream (`personal`) behind their session, ended once the session ends. */
  openPersonal(credential: StreamCredential & { projectId: null }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): Observable<StreamLine> {
    return this.gated('personal', credential, userId, expiresAt, checkedAt, this.personal(userId, pingMs));
  }

  private gated(kind: StreamKind, credential: StreamCredential, userId: string, expiresAt: Date | null, checkedAt: number, source: Observable<StreamLine>): Observable<StreamLine> {
    return new Observable<StreamLine>((out) => {
      const closed = this.metrics.streamOpened(kind);
      const gate = this.access.watch(credential, userId, expiresAt, checkedAt, out);
      const lines = source.subscribe({
        next: (line) => gate.deliver(line),
        complete: () => out.complete(),
        error: (error) => out.error(error),
      });
      return () => {
        closed();
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
    return concat(of<StreamLine[]>({ retry: RETRY_MS }, { event: 'ready', data: {} }), all).pipe(takeUntil(this.closing));
  }

  /** Open streams would hold a graceful shutdown forever: end them first. */
  beforeApplicationShutdown(): void {
    this.closing.next();
    this.closing.complete();
  }
}
