import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseId } from '@board/kernel';
import { BeforeBody, pathParam, refuseNonObjectBody } from '../http/before-body';

/** A role change names its member in the path: a malformed id is refused before the body is read (the contract's order). */
@Injectable()
export class MemberPathCheck extends BeforeBody {
  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    parseId(pathParam(request, 'userId'), 'member');
  }
}
