import { BeforeApplicationShutdown, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { Metrics, Notice, NoticeFeed, ReplicaReads, StreamKind } from '@board/kernel';
import { StreamCredential } from '@board/persistence';
import { StreamAccessWatch, StreamGate } from './stream-access.watch';
import { PingWheel } from './ping-wheel';

export const PING_MS = 25_000;
export const RETRY_MS = 3000;

/** One server-sent event as it goes on the wire. */
export type StreamLine = { event: string; data: unknown } | { comment: string } | { retry: number };

export function encode(line: StreamLine): string {
  if ('retry' in line) return `retry: ${line.retry}\n\n`;
  if ('comment' in line) return `: ${line.comment}\n\n`;
  return `event: ${line.event}\ndata: ${JSON.stringify(line.data)}\n\n`;
}

const RETRY = Buffer.from(encode({ retry: RETRY_MS }));
const OPENING = Buffer.from(encode({ retry: RETRY_MS }) + encode({ event: 'ready', data: {} }));
const READY = Buffer.from(encode({ event: 'ready', data: {} }));
const PING = Buffer.from(encode({ comment: 'ping' }));

/** Where a stream's lines go, as the bytes on the wire. */
export interface StreamSink {
  next(bytes: Buffer): void;
  complete(): void;
}

/** Starts a stream into a sink; calling the answer stops it (the client went). */
export type StreamStart = (sink: StreamSink) => () => void;

/** One open stream: a few fields, in the indexes of its project or person, a ping slot and its access gate. */
class OpenStream implements StreamSink {
  gate!: StreamGate;
  slot = -1;
  /** With read replicas, the lines that came before the opening `ready` could go (see `StreamService.start`). */
  held: Buffer[] | null = null;
  private stopped = false;

  constructor(
    private readonly service: StreamService,
    readonly kind: StreamKind,
    /** The project (kind project) or the person (kind personal) whose notices it gets. */
    readonly key: string,
    readonly wheel: PingWheel<OpenStream>,
    private readonly sink: StreamSink,
    private readonly counted: () => void,
  ) {}

  /** A line the gate let through. */
  next(bytes: Buffer): void {
    if (this.held) this.held.push(bytes);
    else this.sink.next(bytes);
  }

  /** Sends the opening `ready`, then the lines held meanwhile, in order. */
  ready(): void {
    const lines = this.held ?? [];
    this.held = null;
    if (this.stopped) return;
    this.sink.next(READY);
    for (const line of lines) this.sink.next(line);
  }

  /** Ended by the server: access lost, shutdown, or a client that does not read. */
  complete(): void {
    this.stop();
    this.sink.complete();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.service.forget(this);
    this.counted();
    this.gate?.close();
  }
}

/**
 * The instance's streams, fanned out from its one listener: each notice is encoded once and
 * written to the streams of its project (or person) only, found in an index, never by asking
 * every stream. Retry and ready first, ready again after the listener had to reconnect, and a
 * ping comment every 25 seconds from one shared timer.
 */
@Injectable()
export class StreamService implements BeforeApplicationShutdown, OnModuleDestroy {
  private readonly projects = new Map<string, Set<OpenStream>>();
  private readonly people = new Map<string, Set<OpenStream>>();
  private readonly all = new Set<OpenStream>();
  private readonly wheels = new Map<number, PingWheel<OpenStream>>();
  private notices?: Subscription;
  /** After shutdown began a stream that opens ends at once instead of holding it. */
  private closing = false;

  constructor(
    private readonly listener: NoticeFeed,
    private readonly access: StreamAccessWatch,
    private readonly metrics: Metrics,
    private readonly reads: ReplicaReads,
  ) {}

  /** A client's stream: `subscribe` behind its credential, ended once that credential loses access to the project. */
  open(credential: StreamCredential & { projectId: string }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): StreamStart {
    return (sink) => this.start('project', credential.projectId, sink, pingMs, (out) => this.access.watch(credential, userId, expiresAt, checkedAt, out));
  }

  /** A person's own stream (`personal`) behind their session, ended once the session ends. */
  openPersonal(credential: StreamCredential & { projectId: null }, userId: string, expiresAt: Date | null, checkedAt: number, pingMs = PING_MS): StreamStart {
    return (sink) => this.start('personal', userId, sink, pingMs, (out) => this.access.watch(credential, userId, expiresAt, checkedAt, out));
  }

  /** A project's stream with no access gate (the gated one is `open`). */
  subscribe(projectId: string, pingMs = PING_MS): StreamStart {
    return (sink) => this.start('project', projectId, sink, pingMs, (out) => ungated(out));
  }

  /** How many streams the fan-out index holds (a stream that ended must leave it). */
  get indexed(): { streams: number; projects: number; people: number } {
    return { streams: this.all.size, projects: this.projects.size, people: this.people.size };
  }

  private start(kind: StreamKind, key: string, sink: StreamSink, pingMs: number, gate: (out: OpenStream) => StreamGate): () => void {
    if (this.closing) {
      sink.complete();
      return () => undefined;
    }
    this.listen();
    const stream = new OpenStream(this, kind, key, this.wheel(pingMs), sink, this.metrics.streamOpened(kind));
    stream.gate = gate(stream);
    if (this.reads.enabled) {
      // With read replicas, `ready` waits until a re-read would show every write committed before
      // the stream was indexed (ReplicaReads.settled: a few milliseconds, at most the bound): the
      // client re-reads on it, and a change made before has no notice of its own to catch up
      // with. Lines that come meanwhile are held and follow the ready, as they would without.
      stream.gate.deliver(RETRY);
      stream.held = [];
      void this.reads.settled().then(() => stream.ready());
    } else stream.gate.deliver(OPENING);
    this.index(kind).set(key, (this.index(kind).get(key) ?? new Set()).add(stream));
    this.all.add(stream);
    stream.slot = stream.wheel.add(stream);
    return () => stream.stop();
  }

  /** Takes an ended stream out of every index. */
  forget(stream: OpenStream): void {
    if (!this.all.delete(stream)) return;
    const index = this.index(stream.kind);
    const streams = index.get(stream.key);
    streams?.delete(stream);
    if (streams?.size === 0) index.delete(stream.key);
    stream.wheel.remove(stream, stream.slot);
  }

  private index(kind: StreamKind): Map<string, Set<OpenStream>> {
    return kind === 'personal' ? this.people : this.projects;
  }

  private wheel(pingMs: number): PingWheel<OpenStream> {
    let wheel = this.wheels.get(pingMs);
    if (!wheel) this.wheels.set(pingMs, (wheel = new PingWheel<OpenStream>(pingMs, (s) => s.gate.deliver(PING))));
    return wheel;
  }

  private listen(): void {
    this.notices ??= this.listener.stream.subscribe((notice) => this.hear(notice));
  }

  private hear(notice: Notice): void {
    switch (notice.type) {
      case 'change':
      case 'presence':
        return this.send(this.projects.get(notice.payload.projectId as string), { event: notice.type, data: notice.payload });
      case 'notification': {
        const { userId, id, kind, projectId, taskId } = notice.payload;
        return this.send(this.people.get(userId), { event: 'notification', data: { id, kind, projectId, taskId } });
      }
      case 'reconnected':
        // Notices may have been missed while the listener was away: every client must re-read.
        for (const stream of this.all) stream.gate.deliver(READY);
    }
  }

  /** Encodes the line once for all of its streams, to the bytes every socket is given. */
  private send(streams: Set<OpenStream> | undefined, line: StreamLine): void {
    if (!streams) return;
    const bytes = Buffer.from(encode(line));
    // A stream that ends on the way leaves the set; a Set's iteration allows that.
    for (const stream of streams) stream.gate.deliver(bytes);
  }

  /** Open streams would hold a graceful shutdown forever: end them first. */
  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const stream of this.all) stream.complete();
  }

  onModuleDestroy(): void {
    this.notices?.unsubscribe();
  }
}

function ungated(out: StreamSink): StreamGate {
  let open = true;
  return {
    deliver: (bytes) => open && out.next(bytes),
    close: () => void (open = false),
  };
}
