import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AttemptOptions, Throttle, ThrottleFamily } from '@board/accounts';
import { clientAddress } from '../http/client-address';
import { refuseNonObjectBody } from '../http/before-body';

const THROTTLED = 'board:throttled';

interface ThrottledRule {
  family: ThrottleFamily;
  options: AttemptOptions;
}

/**
 * A sign-in route judged inside the throttle of its client's address: the try is counted before
 * the body is read, so the body's refusals count as the family says (every refusal by default).
 */
export const Throttled = (family: ThrottleFamily, options: AttemptOptions = {}) =>
  applyDecorators(SetMetadata(THROTTLED, { family, options } satisfies ThrottledRule), UseInterceptors(ThrottleInterceptor));

/**
 * Interceptors run around the pipes, so the global DTO pipe reads the body inside the attempt:
 * the throttle is the gate before the body, and the body is still read once, by the pipe. A body
 * that is no JSON object is refused first and is no try.
 */
@Injectable()
export class ThrottleInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttle: Throttle,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rule = this.reflector.get<ThrottledRule | undefined>(THROTTLED, context.getHandler());
    if (!rule) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    refuseNonObjectBody(request);
    return from(this.throttle.attempt(rule.family, clientAddress(request), () => lastValueFrom(next.handle(), { defaultValue: undefined }), rule.options));
  }
}
