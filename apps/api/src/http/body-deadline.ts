import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { describeError } from './error-catalog';

/**
 * A body must arrive within `timeoutMs` of its headers (decisions › Fair use: 30 s), else 408
 * `The request took too long to arrive.` and the connection closes. Node's own `requestTimeout`
 * only covers the headers (it stops counting once they are complete, and the server sets it for
 * them), so a body dripped one byte at a time would hold its socket and its handler for ever.
 * The timer starts in onRequest, before anything reads the body, and stops when the body has
 * arrived, the answer is sent or the socket closes.
 */
export function bodyDeadline(timeoutMs: number) {
  // Callback-style: every request passes here, and an async hook costs a promise per request.
  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const raw = request.raw;
    if (raw.complete || !carriesBody(request)) return done();
    const timer = setTimeout(() => {
      if (raw.complete || reply.sent) return;
      const { status, message } = describeError('request.too_slow', {});
      // Whatever waits for the body (a hook, the parser) finds the answer sent and stops there.
      void reply
        .status(status)
        .header('content-type', 'application/json; charset=utf-8')
        .header('connection', 'close')
        .send(JSON.stringify({ error: message }));
    }, timeoutMs);
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    reply.raw.once('finish', stop);
    done();
  };
}

function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}
