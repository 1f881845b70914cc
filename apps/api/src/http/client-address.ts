import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address, as throttles count it and log lines show it: always an IP address.
 * Behind a trusted proxy Fastify takes it from X-Forwarded-For, which with
 * `SERVICE_TRUST_PROXY=true` any client writes itself; a forwarded value that is not an IP
 * address (free text, a name, an injected log line) is ignored and the socket's address counts
 * instead, so nobody picks a throttle key of their own or writes into the log's address field.
 */
export function clientAddress(request: FastifyRequest): string {
  const forwarded = request.ip;
  if (typeof forwarded === 'string' && isIP(forwarded) !== 0) return forwarded;
  return request.socket.remoteAddress ?? 'unknown';
}
