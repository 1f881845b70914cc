import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Socket } from 'node:net';
import { ErrorCode } from '@board/kernel';
import { SERVICE_VERSION } from '../system/version';
import { describeError } from './error-catalog';
import { refusalHeaders } from './security-headers';

/** Longest request target (path and query string) answered; a longer one is 414 (README › Limits). */
export const MAX_URL_LENGTH = 8192;
/** Longest path parameter the router takes: an id, or an email of 200 characters percent-encoded. */
export const MAX_PARAM_LENGTH = 1000;
/** Request line and headers together (Node's own default, said out loud); more is 431. */
export const MAX_HEADER_BYTES = 16_384;

/**
 * What Fastify and Node refuse before a route runs, in the envelope (decisions.md › Security ›
 * Router refusals): `{ error }` with `X-Service-Version` and the security headers, never echoing
 * the request (Fastify's own answers quote the path back).
 */
export function routerRefusals(production: boolean) {
  const headers = { ...refusalHeaders(production), 'x-service-version': SERVICE_VERSION };
  const answer = (code: ErrorCode | null) => {
    if (!code) return { status: 400, body: JSON.stringify({ error: 'The request could not be read.' }) };
    const { status, message } = describeError(code, {});
    return { status, body: JSON.stringify({ error: message }) };
  };

  return {
    /** Broken percent-escapes in the path, an over-long path segment (Fastify options `frameworkErrors`). */
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
      const { status, body } = answer(
        error.code === 'FST_ERR_BAD_URL' ? 'request.bad_address' : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'request.address_too_long' : null,
      );
      reply.status(status).headers(headers).header('x-request-id', request.id).header('content-type', 'application/json; charset=utf-8').send(body);
    },

    /**
     * A request target longer than MAX_URL_LENGTH, or with a path segment longer than
     * MAX_PARAM_LENGTH (first onRequest hook; the route has not run). The segment check is here
     * and not only in the router because the page's catch-all route (`/*`) would otherwise take a
     * path whose parameter the router refused, and answer 404.
     */
    tooLong(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): Promise<void> | undefined {
      const url = request.raw.url;
      // Callback style for the usual address (no promise per request); a refusal is awaited.
      if (!url || (url.length <= MAX_URL_LENGTH && !hasLongSegment(url))) return void done();
      const { status, body } = answer('request.address_too_long');
      return (async () => {
        await reply.status(status).headers(headers).header('content-type', 'application/json; charset=utf-8').send(body);
      })();
    },

    /**
     * What Node's parser refuses, on the raw socket (Fastify option `clientErrorHandler`). Node
     * counts the request line in its header limit, so an overflow before the first line ended is a
     * too-long address (414), after it too-large headers (431).
     */
    clientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      let code: ErrorCode | null = null;
      if (error.code === 'HPE_HEADER_OVERFLOW') {
        const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : null;
        const lineEnd = packet ? packet.indexOf('\r\n') : 0;
        code = packet && (lineEnd < 0 || lineEnd > MAX_URL_LENGTH) ? 'request.address_too_long' : 'request.headers_too_large';
      } else if (error.code === 'HPE_INVALID_URL') {
        code = 'request.bad_address';
      } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        // The request (its body, most often) did not arrive within SERVICE_BODY_TIMEOUT_MS.
        code = 'request.too_slow';
      }
      const refusal = answer(code);
      if (socket.writable) {
        const lines = Object.entries({ ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(refusal.body)), connection: 'close' })
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        socket.write(`HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status] ?? 'Bad Request'}\r\n${lines}\r\n${refusal.body}`);
      }
      socket.destroy(error);
    },
  };
}

function hasLongSegment(url: string): boolean {
  const path = url.split('?', 1)[0];
  return path.length > MAX_PARAM_LENGTH && path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };
