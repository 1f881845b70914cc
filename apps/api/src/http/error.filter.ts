import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode } from '@board/kernel';
import { describeError, RETRY_AFTER } from './error-catalog';

const INTERNAL = 'Something went wrong on our side. Try again in a moment.';

/** Statuses Fastify or Nest raise before a route runs, answered as the catalog's codes. */
const FRAMEWORK_CODES: Record<number, ErrorCode> = {
  400: 'request.not_json',
  404: 'request.not_found',
  405: 'request.not_found',
  413: 'request.too_large',
  415: 'request.not_json',
};

/** The one place every failure becomes `{ error }` at its status. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    if (reply.sent) return;
    const { status, body, headers } = this.describe(exception, request);
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private describe(exception: unknown, request: FastifyRequest): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
    if (exception instanceof DomainError) {
      const { status, message } = describeError(exception.code, exception.params);
      const headers: Record<string, string> = {};
      // A refusal that knows when trying again helps says so (the throttle, the invite mail limit).
      if (typeof exception.params.retryAfter === 'number') headers['retry-after'] = String(exception.params.retryAfter);
      const retryAfter = RETRY_AFTER[exception.code];
      if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
      // Operators see when the database turned requests away and why (the answer says only "busy").
      if (exception.code === 'server.busy') {
        const why = exception.params.why ? ` (${exception.params.why})` : '';
        this.logger.warn(`${request.method} ${request.url.split('?')[0]} answered 503: the database is busy${why} [${request.id}]`);
      }
      return { status, body: { error: message, ...(exception.extra ?? {}) }, headers };
    }
    const status =
      exception instanceof HttpException
        ? exception.getStatus()
        : Number((exception as { statusCode?: number })?.statusCode) || 500;
    const code = FRAMEWORK_CODES[status];
    if (code) return { status, body: { error: describeError(code, {}).message }, headers: {} };
    if (status < 500) return { status, body: { error: 'The request could not be read.' }, headers: {} };
    // Log the failure for operators; the answer leaks nothing about it.
    const e = exception as Error;
    this.logger.error(`${request.method} ${request.url.split('?')[0]} failed [${request.id}]: ${e?.name ?? 'Error'}: ${e?.message ?? e}`, e?.stack);
    return { status: 500, body: { error: INTERNAL }, headers: {} };
  }
}
