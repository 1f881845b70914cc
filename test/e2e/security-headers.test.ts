/**
 * Security headers (decisions.md › Security › Headers): every answer carries nosniff, no-referrer
 * and DENY; answers that needed a credential are `no-store` (the stream keeps its own); HSTS
 * with NODE_ENV=production only. Error answers (400, 401, 404, 429, router refusals) included.
 */
import { refusalHeaders } from '../../apps/api/src/http/security-headers';
import { rawGet } from '../support/raw-http';
import { SseReader } from '../support/sse';
import { Answer, Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

const EVERY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function headersOf(res: Answer | { headers: Record<string, string | string[] | undefined> }): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (res.headers instanceof Headers) res.headers.forEach((v, k) => (out[k] = v));
  else for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

describe('security headers', () => {
  let t: TestApp;
  let prod: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    prod = await startTestApp({ databaseUrl: t.databaseUrl, env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await prod.close();
    await t.close();
  });

  it('puts the set on answers, private reads and errors alike, with no-store and a strict CSP', async () => {
    const owner = await registerPerson(t);
    const project = await createProject(owner.client);
    const anonymous = new Client(t.api);
    const answers: Answer[] = [
      await anonymous.get('/version'),
      await anonymous.get('/health'),
      await owner.client.get('/projects'),
      await owner.client.get(`/projects/${project.id}/activity`),
      await owner.client.get('/auth/me'),
      await anonymous.get('/auth/me'), // 401
      await owner.client.get('/tasks/not-an-id'), // 400
      await owner.client.get('/nowhere'), // 404
      await owner.client.post('/projects', { name: '' }), // 400 from a write
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 401, 400, 404, 400]);
    for (const answer of answers) {
      const h = headersOf(answer);
      expect(h).toMatchObject(EVERY);
      expect(h['cache-control']).toBe('no-store');
      expect(h['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(h['strict-transport-security']).toBeUndefined();
      expect(h['x-service-version']).toBeDefined();
    }
  });

  it('puts the set on a 429', async () => {
    const c = new Client(t.api);
    let last: Answer | undefined;
    for (let i = 0; i < 12; i++) last = await c.post('/auth/login', { email: 'nobody@example.com', password: 'wrong password' });
    expect(last!.status).toBe(429);
    expect(headersOf(last!)).toMatchObject({ ...EVERY, 'cache-control': 'no-store' });
  });

  it('lets the stream keep its own Cache-Control and still carry the set', async () => {
    const owner = await registerPerson(t);
    const project = await createProject(owner.client);
    const reader = await SseReader.open(`${t.api}/projects/${project.id}/stream`, { cookie: `service_session=${owner.client.cookie}` });
    try {
      expect(reader.status).toBe(200);
      await reader.waitFor((e) => e.event === 'ready');
      const h = headersOf(reader);
      expect(h).toMatchObject(EVERY);
      expect(h['cache-control']).toBe('no-cache, no-transform');
      expect(h['content-type']).toMatch(/^text\/event-stream/);
    } finally {
      reader.close();
    }
  });

  it('adds HSTS with NODE_ENV=production, on answers, errors and router refusals', async () => {
    const c = new Client(prod.api);
    for (const answer of [await c.get('/version'), await c.get('/nowhere'), await c.get('/auth/me')]) {
      expect(headersOf(answer)).toMatchObject({ ...EVERY, 'strict-transport-security': 'max-age=31536000' });
    }
    const refusal = await rawGet(prod.api, '/api/tasks/%zz');
    expect(refusal.status).toBe(400);
    expect(refusal.headers).toMatchObject({ ...EVERY, 'strict-transport-security': 'max-age=31536000' });
  });

  it('writes the same set on router refusals as helmet writes on routed answers', async () => {
    for (const [app, production] of [
      [t, false],
      [prod, true],
    ] as const) {
      const routed = headersOf(await new Client(app.api).get('/nowhere'));
      const expected = refusalHeaders(production);
      for (const name of Object.keys(expected)) expect([name, routed[name]]).toEqual([name, expected[name]]);
      for (const name of ['strict-transport-security', 'content-security-policy']) expect([name, routed[name]]).toEqual([name, expected[name]]);
    }
  });
});
