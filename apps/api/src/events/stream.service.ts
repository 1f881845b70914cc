import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { concat, filter, interval, map, merge, Observable, of, ReplaySubject, takeUntil } from 'rxjs';
import { NoticeFeed } from '@board/kernel';
import { StreamCredential } from '@board/persistence';
import { StreamAccessWatch } from './stream-access.watch';

export const PING_MS = 25_000;
export const RETRY_MS = 3000;

/** One server-sent event as it goes on the wire. */
export type StreamLine = { event: string; data: unknown } | { comment: string } | { retry: number };

export function encode(line: StreamLine): string {
  if ('retry' in line) return `retry: ${line.retry}\n\n`;
  if ('comment' in line) return `: ${line.comment}\n\n`;
  return `event: ${line.event}\ndata: ${JSON.stringify(line.data)}\n\n`;
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
  ) {}

  /** A client's stream: `subscribe` behind its credential, ended once that credential loses access to the project. */
  open(credential: StreamCredential, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): Observable<StreamLine> {
    return new Observable<StreamLine>((out) => {
      const gate = this.access.watch(credential, userId, expiresAt, checkedAt, out);
      const lines = this.subscribe(credential.projectId, pingMs).subscribe({
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
      // Notices may have been missed while the listener was away: every client must re-read.
      notices.pipe(
        filter((n) => n.type === 'reconnected'),
        map((): StreamLine => ({ event: 'ready', data: {} })),
      ),
      interval(pingMs).pipe(map((): StreamLine => ({ comment: 'ping' }))),
    );
    return concat(of<StreamLine[]>({ retry: RETRY_MS }, { event: 'ready', data: {} }), live).pipe(takeUntil(this.closing));
  }

  /** Open streams would hold a graceful shutdown forever: end them first. */
  beforeApplicationShutdown(): void {
    this.closing.next();
    this.closing.complete();
  }
}
