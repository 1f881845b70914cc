import { Controller, Patch, Get } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { ExecutionContext } from '@nestjs/common';
import { DomainError } from '@board/kernel';
import { EditCommentBody } from '../../comments/comments.dto';
import { ChartDataQuery } from '../../charts/charts.dto';
import { routesOf } from '../../openapi/routes';
import { UNREADABLE } from '../json-body';
import { AfterGate, BodyAfterGate, QueryAfterGate } from './after-gate';

/** The call raises the catalog's refusal `code`. */
const refuses = (call: () => unknown, code: string) => expect(call).toThrow(expect.objectContaining({ constructor: DomainError, code }));

@Controller('demo')
class DemoController {
  @Patch(':id')
  now(@BodyAfterGate(EditCommentBody) body: AfterGate<EditCommentBody>) {
    return body;
  }

  @Patch(':id/later')
  later(@BodyAfterGate(EditCommentBody, { json: 'later' }) body: AfterGate<EditCommentBody>) {
    return body;
  }

  @Get(':id')
  query(@QueryAfterGate(ChartDataQuery) query: AfterGate<ChartDataQuery>) {
    return query;
  }
}

/** Runs the param decorator's factory of `handler` on a request. */
function resolve(handler: string, request: { body?: unknown; query?: unknown }): AfterGate<object> {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, DemoController, handler) as Record<string, { factory: (data: unknown, ctx: ExecutionContext) => unknown; data: unknown }>;
  const [arg] = Object.values(args);
  const ctx = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return arg.factory(arg.data, ctx) as AfterGate<object>;
}

describe('a body or query read after the gate', () => {
  it('refuses a body that is not a JSON object when the route is entered, unless told to wait', () => {
    refuses(() => resolve('now', { body: UNREADABLE }), 'request.not_json');
    refuses(() => resolve('now', { body: [1] }), 'request.not_json');
    const later = resolve('later', { body: UNREADABLE });
    refuses(() => later.readable(), 'request.not_json');
    refuses(() => later.read(), 'request.not_json');
  });

  it('checks the DTO only when read, and answers a field as sent before that', () => {
    const gated = resolve('now', { body: { body: ' ', other: 1 } }) as AfterGate<EditCommentBody>;
    expect(gated.field('body')).toBe(' ');
    refuses(() => gated.read(), 'comment.empty');
    const fine = resolve('now', { body: { body: 'Hi', baseBody: ' Hello ', other: 1 } }) as AfterGate<EditCommentBody>;
    expect(fine.read()).toEqual(Object.assign(new EditCommentBody(), { body: 'Hi', baseBody: 'Hello' }));
    expect(resolve('now', {}).readable()).toBeInstanceOf(AfterGate);
  });

  it('reads a query (none reads as {})', () => {
    refuses(() => resolve('query', { query: { to: 'x' } }).read(), 'chart.day_invalid');
    expect({ ...resolve('query', {}).read() }).toEqual({});
  });

  it('names its DTO to the API document', () => {
    const routes = routesOf([DemoController]);
    expect(routes.find((r) => r.handler === 'now')?.body).toBe(EditCommentBody);
    expect(routes.find((r) => r.handler === 'later')?.body).toBe(EditCommentBody);
    expect(routes.find((r) => r.handler === 'query')?.query).toBe(ChartDataQuery);
  });
});
