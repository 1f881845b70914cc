import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_VERSION } from '../system/version';
import type { StreamStart } from './stream.service';

/**
 * Most bytes a stream may leave waiting in the process for a client that does not read (the
 * kernel's socket buffer comes first): past it the stream is dropped, so a stalled client costs
 * a bounded amount of memory; it reconnects and re-reads on ready.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;

const CRLF = Buffer.from('\r\n');
/** The line framed last as an HTTP/1.1 chunk: a notice's one Buffer goes to every socket in a row, so it is framed once. */
let framedFrom: Buffer | null = null;
let framed = CRLF;

function chunkOf(bytes: Buffer): Buffer {
  if (bytes !== framedFrom) {
    framed = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    framedFrom = bytes;
  }
  return framed;
}

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
  // The head is on the socket: a chunked answer's lines go straight to it, framed as the response
  // would frame them but without its per-write framing, corking and string conversion (the
  // fan-out's cost at ten thousand streams). The response itself still writes the last chunk.
  const socket = raw.chunkedEncoding && raw.headersSent ? raw.socket : null;
  let stop = (): void => undefined;
  stop = start({
    next: (bytes) => {
      if ((socket ?? raw).writableLength <= MAX_BUFFERED_BYTES) {
        if (socket) socket.write(chunkOf(bytes));
        else raw.write(bytes);
        return;
      }
      stop();
      raw.destroy();
    },
    complete: () => raw.end(),
  });
  request.raw.on('close', stop);
}
