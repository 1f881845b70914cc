import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import { DomainError } from '@board/kernel';
import { UNREADABLE } from '../http/json-body';
import { ListIdsCheck } from './list-ids.check';

const LIST = '00000000-0000-4000-8000-0000000000a1';
const TASK = '00000000-0000-4000-8000-0000000000b1';

/** Runs the check on a request; answers the refusal's code and params, or 'passed' when the handler ran. */
async function outcome(params: Record<string, string>, body: unknown): Promise<string> {
  const context = { switchToHttp: () => ({ getRequest: () => ({ params, body, method: 'PUT' }) }) } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of('passed') };
  try {
    return String(await lastValueFrom(new ListIdsCheck().intercept(context, next)));
  } catch (error) {
    if (error instanceof DomainError) return `${error.code} ${JSON.stringify(error.params)}`;
    throw error;
  }
}

describe('ListIdsCheck', () => {
  it('refuses, in the contract’s order, a body that is not a JSON object, a malformed list id, then a malformed task id', async () => {
    expect(await outcome({ listId: 'bad', taskId: 'bad' }, [1])).toBe('request.not_json {}');
    expect(await outcome({ listId: 'bad', taskId: 'bad' }, UNREADABLE)).toBe('request.not_json {}');
    expect(await outcome({ listId: 'bad', taskId: 'bad' }, {})).toBe('id.invalid {"kind":"list"}');
    expect(await outcome({ listId: LIST, taskId: 'bad' }, undefined)).toBe('id.invalid {"kind":"task"}');
  });

  it('lets the route read its body when the ids are well formed (a list route without a task too)', async () => {
    expect(await outcome({ listId: LIST, taskId: TASK }, { afterId: 7 })).toBe('passed');
    expect(await outcome({ listId: LIST.toUpperCase() }, { name: '' })).toBe('passed');
  });
});
