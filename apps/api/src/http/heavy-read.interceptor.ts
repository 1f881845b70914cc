import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { HeavyReadClass, HeavyReads } from '@board/kernel';

/** The metadata key of a route's heavy-read class (`@HeavyRead`, heavy-read.decorator.ts). */
export const HEAVY_READ = 'board:heavy-read';

/**
 * Runs a route declared `@HeavyRead(…)` inside one of its caller's heavy-read slots (a person, or
 * the agent a token belongs to: `caller.id` either way). Guards have run, so the caller is known;
 * the body and query are read inside, so a refused read costs one statement. Only heavy routes
 * carry it (the decorator puts it on the route), so the ordinary path gains nothing.
 */
@Injectable()
export class HeavyReadInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly slots: HeavyReads,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const heavy = this.reflector.get<HeavyReadClass | undefined>(HEAVY_READ, context.getHandler());
    const caller = context.switchToHttp().getRequest<FastifyRequest>().auth?.caller;
    if (!heavy || !caller) return next.handle();
    // next.handle() is called inside the slot's work, so the handler runs in its transaction.
    return from(this.slots.run(caller.id, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
