/**
 * Proxies (decisions › Fair use): `SERVICE_TRUST_PROXY=true` trusts any X-Forwarded-For, but the
 * address a throttle counts and a log line shows is always an IP address — a forwarded value
 * that is not one is ignored and the socket's address counts instead.
 */
import { isIP } from 'node:net';
import { Client, registerPerson, startTestApp, TestApp } from '../support/test-app';

describe('a forwarded address that is not an IP address', () => {
  let t: TestApp;
  const written: string[] = [];
  let spy: jest.SpyInstance;
  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_TRUST_PROXY: 'true', LOG_LEVEL: 'info' } });
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterAll(async () => {
    spy.mockRestore();
    await t.close();
  });

  it('neither becomes a throttle key nor reaches the log line: the socket address counts', async () => {
    const person = await registerPerson(t, 'Target');
    const client = new Client(t.api);
    // Ten different free texts: were each its own key, no throttle would ever start.
    for (let i = 0; i < 10; i++) {
      const res = await client.post('/auth/login', { email: person.email, password: `wrong ${i}` }, { headers: { 'x-forwarded-for': `free text ${i} GET /api/admin 200` } });
      expect(res.status).toBe(401);
    }
    const res = await client.post('/auth/login', { email: person.email, password: person.password }, { headers: { 'x-forwarded-for': 'yet another name' } });
    expect(res.status).toBe(429);

    // Storage itself: which address the throttle counted is shown by no route.
    const { rows } = await t.sql.query<{ subject: string }>(`SELECT DISTINCT subject FROM throttle_failures WHERE family = 'login'`);
    expect(rows.map((r) => r.subject).some((s) => /free text|another/.test(s))).toBe(false);

    const lines = written.join('').split('\n').filter((l) => l.includes('POST /api/auth/login'));
    expect(lines.length).toBeGreaterThanOrEqual(11);
    for (const line of lines) {
      expect(line).not.toMatch(/free text|another name|\/api\/admin/);
      const address = /ms (\S+)/.exec(line)?.[1] ?? '';
      expect(isIP(address.replace(/\x1b\[[0-9;]*m/g, ''))).not.toBe(0);
    }
  });

  it('still takes a forwarded IP address', async () => {
    written.length = 0;
    const res = await fetch(`${t.api}/version`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(200);
    expect(written.join('')).toMatch(/GET \/api\/version 200 .*203\.0\.113\.9/);
  });
});
