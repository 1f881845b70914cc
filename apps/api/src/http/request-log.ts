import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import type { Metrics } from '@board/kernel';
import { clientAddress } from './client-address';

/** The header a client or a proxy may name its request by, answered on every reply. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An id a proxy may set is kept only when it is short and plain: it goes into every log line of its request. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the caller's `X-Request-Id` when safe, else a new UUID (Fastify's `genReqId`). */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/**
 * A route as a label: its pattern (`/api/tasks/:taskId`), never the address asked for, so the
 * labels stay as few as the routes; every address no route takes is `unmatched`.
 */
export function routeLabel(request: Pick<FastifyRequest, 'routeOptions'>): string {
  return request.routeOptions.url ?? 'unmatched';
}

/** What one request's log line says. Path only: query strings, headers and bodies can hold secrets. */
export function requestLine(request: FastifyRequest, reply: FastifyReply) {
  return {
    method: request.method,
    path: request.url.split('?')[0],
    route: routeLabel(request),
    status: reply.statusCode,
    ms: Number(reply.elapsedTime.toFixed(1)),
    ip: clientAddress(request),
  };
}

/** The same line for a person: `GET /api/version 200 1.2ms 127.0.0.1 [id]`. */
export function prettyRequestLine(line: ReturnType<typeof requestLine>, id: string): string {
  return `${line.method} ${line.path} ${line.status} ${line.ms.toFixed(1)}ms ${line.ip} [${id}]`;
}

/**
 * Every answer carries its request's id (also the stream's, which writes its own head: the header
 * is set on the raw response), and once sent is counted and logged: a JSON object on the
 * request's own pino logger (which adds `reqId`), or a line for a person.
 */
export function requestLogHooks(fastify: FastifyInstance, options: { json: boolean; metrics: Metrics }): void {
  // Callback-style hooks: an async one costs a promise and a microtask turn on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
  const http = new Logger('http');
  fastify.addHook('onResponse', (request, reply, done) => {
    const elapsed = reply.elapsedTime;
    options.metrics.requestAnswered(request.method, routeLabel(request), reply.statusCode, elapsed / 1000);
    // A JSON line is built only when its level is on (production at warn writes none per request).
    if (!options.json) http.log(prettyRequestLine(requestLine(request, reply), request.id));
    else if ((request.log as Pino).isLevelEnabled('info')) request.log.info({ context: 'http', ...requestLine(request, reply) }, 'request');
    done();
  });
}
