import { Client as PgClient } from 'pg';
import { Client, startTestApp, TestApp } from '../support/test-app';
import { serverUrl } from '../support/database';

/** Health says whether the database answers; a lost database is a 503, never a crash. */
describe('GET /api/health without a database', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 { ok: true } and then 503 { ok: false } once the database is gone', async () => {
    const anon = new Client(t.api);
    expect((await anon.get('/health')).body).toEqual({ ok: true });

    // Cut every connection of the service and take its database away.
    // Storage itself: only a database that is gone shows how the service answers without one.
    const name = new URL(t.databaseUrl).pathname.slice(1);
    const admin = new PgClient({ connectionString: serverUrl() });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();

    const res = await anon.get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ ok: false });
    expect(res.headers.get('x-service-version')).toBeTruthy();
    // Other routes fail with the envelope and leak nothing.
    const login = await anon.post('/auth/login', { email: 'a@example.com', password: 'whatever1' });
    expect(login.status).toBe(500);
    expect(login.body).toEqual({ error: 'Something went wrong on our side. Try again in a moment.' });
  });
});
