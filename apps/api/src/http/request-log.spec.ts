import type { FastifyReply, FastifyRequest } from 'fastify';
import { prettyRequestLine, requestIdOf, requestLine, routeLabel } from './request-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('keeps a caller’s id of at most 64 letters, digits, dots, dashes and underscores', () => {
    for (const id of ['a', 'req-1', 'Edge.7f3a_c0ffee', 'x'.repeat(64), '0af7651916cd43dd8448eb211c80319c']) {
      expect(requestIdOf({ headers: { 'x-request-id': id } })).toBe(id);
    }
  });

  it('makes a new one for none, or for anything longer or less plain (it goes into log lines)', () => {
    for (const given of [undefined, '', 'x'.repeat(65), 'two words', 'a\nb', 'a"b', '{}', 'ü', 'a/b', ['a', 'b']]) {
      expect(requestIdOf({ headers: { 'x-request-id': given as string } })).toMatch(UUID);
    }
    expect(requestIdOf({ headers: {} })).not.toBe(requestIdOf({ headers: {} }));
  });
});

describe('the request log line', () => {
  const request = (url: string, route?: string) =>
    ({ method: 'GET', url, routeOptions: { url: route }, ip: '10.0.0.7', socket: { remoteAddress: '127.0.0.1' } }) as unknown as FastifyRequest;
  const reply = { statusCode: 200, elapsedTime: 3.14159 } as FastifyReply;

  it('labels a route by its pattern, and an address no route takes as unmatched', () => {
    expect(routeLabel(request('/api/tasks/1', '/api/tasks/:taskId'))).toBe('/api/tasks/:taskId');
    expect(routeLabel(request('/api/nothing'))).toBe('unmatched');
  });

  it('says the path without its query string', () => {
    const line = requestLine(request('/api/tasks/1?token=svcr_secret', '/api/tasks/:taskId'), reply);
    expect(line).toEqual({ method: 'GET', path: '/api/tasks/1', route: '/api/tasks/:taskId', status: 200, ms: 3.1, ip: '10.0.0.7' });
    expect(prettyRequestLine(line, 'req-9')).toBe('GET /api/tasks/1 200 3.1ms 10.0.0.7 [req-9]');
  });
});
