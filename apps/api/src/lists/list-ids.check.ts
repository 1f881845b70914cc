import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseId } from '@board/kernel';
import { BeforeBody, pathParam, refuseNonObjectBody } from '../http/before-body';

/**
 * The contract reads a list route's ids before its body: a body that is not a JSON object, then a
 * malformed list id, then a malformed task id, and only then the body's fields.
 */
@Injectable()
export class ListIdsCheck extends BeforeBody {
  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    parseId(pathParam(request, 'listId'), 'list');
    const taskId = pathParam(request, 'taskId');
    if (taskId !== undefined) parseId(taskId, 'task');
  }
}
