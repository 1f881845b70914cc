import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_VERSION } from '../system/version';
import type { StreamStart } from './stream.service';

/**
 * Most bytes a stream may leave waiting in the process for a client that does not read (the
 * kernel's socket buffer comes first): past it the stream is dropped, so a stalled client costs
 * a bounded amount of memory; it reconnects and re-reads on ready.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;

/** Answers with server-sent events: the headers every stream sends, then its lines until either side ends. */
export function sendEvents(request: FastifyRequest, reply: FastifyReply, start: StreamStart): void {
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
  let stop = (): void => undefined;
  stop = start({
    next: (bytes) => {
      if (raw.writableLength <= MAX_BUFFERED_BYTES) {
        raw.write(bytes);
        return;
      }
      stop();
      raw.destroy();
    },
    complete: () => raw.end(),
  });
  request.raw.on('close', stop);
}
