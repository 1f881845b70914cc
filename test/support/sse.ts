import { request } from 'node:http';
import type { StreamData } from './answers';
import { recordAnswer } from './contract-recorder';

export interface SseEvent {
  event?: string;
  data?: StreamData;
  comment?: string;
  retry?: number;
}

/** A raw server-sent-event reader over node:http, so tests see exactly what goes on the wire. */
export class SseReader {
  readonly events: SseEvent[] = [];
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  raw = '';
  private buffer = '';
  private waiters: (() => void)[] = [];
  private req: ReturnType<typeof request> | null = null;
  closed = false;

  static open(url: string, headers: Record<string, string>): Promise<SseReader> {
    const reader = new SseReader();
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        reader.status = res.statusCode ?? 0;
        reader.headers = res.headers;
        // For the contract test: the stream's own answer, or its refusal once read whole.
        const path = new URL(url).pathname.replace(/^\/api/, '');
        const contentType = String(res.headers['content-type'] ?? '');
        if (reader.status === 200) recordAnswer('GET', path, 200, contentType, undefined);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => reader.push(chunk));
        res.on('end', () => {
          if (reader.status !== 200) recordAnswer('GET', path, reader.status, contentType, readJson(reader.raw));
          reader.closed = true;
          reader.wake();
        });
        resolve(reader);
      });
      req.on('error', (e) => (reader.status ? undefined : reject(e)));
      req.end();
      reader.req = req;
    });
  }

  private push(chunk: string): void {
    this.raw += chunk;
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const event: SseEvent = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) event.comment = line.slice(1).trim();
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
        else if (line.startsWith('retry: ')) event.retry = Number(line.slice(7));
      }
      this.events.push(event);
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Waits until `count` events matching `match` have arrived (or fails after `ms`). */
  async waitFor(match: (e: SseEvent) => boolean, count = 1, ms = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.filter(match);
      if (found.length >= count) return found;
      if (this.closed) throw new Error(`stream closed with ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  changes(): SseEvent[] {
    return this.events.filter((e) => e.event === 'change');
  }

  close(): void {
    this.req?.destroy();
    this.closed = true;
  }
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
