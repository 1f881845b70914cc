import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WriteTrack } from '@board/kernel';
import { readCookie } from '../auth/cookies';

/**
 * Read-your-writes with read replicas (docs/operating.md › Read replicas): an answer to a request
 * that wrote carries the position its writes ended at, and the caller sends the newest it has back
 * on its next requests, so a replica answers them only once it has replayed that far.
 *
 * - `x-service-lsn`, an answer header and a request header: for token callers (the TypeScript
 *   client keeps and sends it by itself) and the board page, which keeps the newest it has seen.
 * - `service_lsn`, a cookie for session callers: other tabs of the same session, and a page that
 *   reloads, carry it too. HttpOnly, SameSite=Lax, and short-lived: past the bound no instance reads
 *   from a replica that lacks the write, so the cookie has nothing left to do.
 */
export const POSITION_HEADER = 'x-service-lsn';
export const POSITION_COOKIE = 'service_lsn';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by ReplicaReadInterceptor when read replicas are configured. */
    writeTrack?: WriteTrack;
  }
}

/** The positions a request brought: its header and its cookie (the newer counts; malformed ones are ignored). */
export function sentPositions(request: FastifyRequest): Array<string | undefined> {
  const header = request.headers[POSITION_HEADER];
  return [Array.isArray(header) ? header[0] : header, readCookie(request, POSITION_COOKIE)];
}

/** Hands the position of what the request wrote back to its caller (onSend: before the headers go). */
export function answerWritePosition(options: { maxLagMs: number; secure: boolean }) {
  const maxAge = Math.ceil(options.maxLagMs / 1000) + 1;
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const wrote = request.writeTrack?.wrote;
    if (!wrote) return payload;
    reply.header(POSITION_HEADER, wrote);
    if (request.auth?.via === 'session') {
      const parts = [`${POSITION_COOKIE}=${wrote}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`];
      if (options.secure) parts.push('Secure');
      reply.header('set-cookie', parts.join('; '));
    }
    return payload;
  };
}
