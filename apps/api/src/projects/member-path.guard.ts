import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseId } from '@board/kernel';
import { bodyObject } from '../http/json-body';

/** A role change names its member in the path: a malformed id is refused before the body is read (the contract's order). */
@Injectable()
export class MemberPathGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A body that is no JSON object is refused first, as for every route.
    bodyObject(request.body);
    parseId((request.params as Record<string, string | undefined>).userId, 'member');
    return true;
  }
}
