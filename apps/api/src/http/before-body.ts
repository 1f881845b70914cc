import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, Observable, switchMap } from 'rxjs';
import { bodyObject } from './json-body';

/**
 * A named check of stored state that the contract puts before a route's body (only a comment's
 * author edits it; a chart must be the caller's before its query is read). Used as
 * `@UseInterceptors(SomeCheck)`: it runs after the access guard and inside a heavy read's slot
 * (interceptors nest: the global one first), and before the pipes, so the request DTO pipe still
 * reads the body once, up front, and raises its first refusal after the check's.
 */
export abstract class BeforeBody implements NestInterceptor {
  protected abstract check(request: FastifyRequest): Promise<void>;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return from(this.check(request)).pipe(switchMap(() => next.handle()));
  }
}

/**
 * A body that is not a JSON object is refused when the route is entered, before any check of
 * stored state (what the contract answered when the body was read by the handler).
 */
export function refuseNonObjectBody(request: FastifyRequest): void {
  bodyObject(request.body);
}

/** The request's path parameter `name`, as sent. */
export const pathParam = (request: FastifyRequest, name: string): string | undefined => (request.params as Record<string, string | undefined>)[name];
