/**
 * Router refusals wear the envelope (decisions.md › Security): broken percent-escapes 400
 * `That address is not valid.`, an over-long path segment or address 414 `That address is too
 * long.`, headers too large 431 `The request headers are too large.`; each `{ error }` with
 * X-Service-Version and the security headers, never echoing the request. Sent on a raw socket:
 * fetch would clean up or refuse these requests.
 */
import { rawGet, RawAnswer, rawRequest } from '../support/raw-http';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

describe('router refusals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const path = (p: string) => `/api${p}`;

  function expectRefusal(answer: RawAnswer, status: number, error: string, echo?: string): void {
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual({ error });
    expect(answer.headers['x-service-version']).toMatch(/^\d+\.\d+\.\d+/);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cache-control']).toBe('no-store');
    if (echo) expect(answer.body).not.toContain(echo);
  }

  it('answers a broken percent-escape in the path with 400', async () => {
    for (const target of ['/projects/%E0%A4%A/stream', '/tasks/%zz', '/projects/%/members/%C3']) {
      expectRefusal(await rawGet(t.api, path(target)), 400, 'That address is not valid.', target.split('/')[2]);
    }
  });

  it('answers an over-long path segment with 414', async () => {
    const segment = 'a'.repeat(1001);
    expectRefusal(await rawGet(t.api, path(`/tasks/${segment}`)), 414, 'That address is too long.', segment);
  });

  it('answers an address over 8192 characters with 414, on known and unknown routes', async () => {
    const query = 'q='.padEnd(8200, 'x');
    expectRefusal(await rawGet(t.api, path(`/version?${query}`)), 414, 'That address is too long.', 'xxxxxxxx');
    expectRefusal(await rawGet(t.api, path(`/nowhere/${'b'.repeat(8200)}`)), 414, 'That address is too long.', 'bbbbbbbb');
    // Longer than Node's header limit: refused by the parser itself, still as an address.
    expectRefusal(await rawGet(t.api, path(`/version?${'q='.padEnd(40_000, 'y')}`)), 414, 'That address is too long.', 'yyyyyyyy');
  });

  it('takes addresses up to the limit', async () => {
    const answer = await rawGet(t.api, path(`/version?${'q='.padEnd(8000, 'x')}`));
    expect(answer.status).toBe(200);
    // A 200-character email, percent-encoded, is a path segment the router takes.
    const owner = await registerPerson(t);
    const project = await createProject(owner.client);
    const email = encodeURIComponent(`${'é'.repeat(90)}@example.com`);
    expect(email.length).toBeGreaterThan(500);
    const res = await owner.client.delete(`/projects/${project.id}/invites/${email}`);
    expect(res.status).not.toBe(414);
  });

  it('answers headers over 16 KiB with 431', async () => {
    const big = 'z'.repeat(20_000);
    expectRefusal(await rawGet(t.api, path('/version'), { 'x-filler': big }), 431, 'The request headers are too large.', 'zzzzzzzz');
    const many: Record<string, string> = {};
    for (let i = 0; i < 200; i++) many[`x-h${i}`] = 'w'.repeat(100);
    expectRefusal(await rawGet(t.api, path('/version'), many), 431, 'The request headers are too large.', 'wwwwwwww');
  });

  it('reads a broken escape in the query string without a 500', async () => {
    const answer = await rawGet(t.api, path('/version?x=%zz&y=%E0%A4%A'));
    expect(answer.status).toBe(200);
  });
});

describe('what Node cannot parse', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers a control character in the address as an address that is not valid', async () => {
    const answer = await rawRequest(t.api, `GET /api/version\u0001x HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: 'That address is not valid.' });
    expect(answer.headers['x-service-version']).toBeDefined();
  });

  it('answers a request it cannot read at all in the envelope', async () => {
    const answer = await rawRequest(t.api, `GET /api/version HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: 'The request could not be read.' });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
