import { Client, createAgent, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * Request logs name method, path, status, time and the request's id: never a password, a session
 * id or a token. Lines for a person in development, one JSON object per line in production.
 */
describe.each<{ format: string; env: Record<string, string> }>([
  { format: 'pretty', env: {} },
  { format: 'json', env: { NODE_ENV: 'production' } },
])('request logs ($format)', ({ format, env }) => {
  let t: TestApp;
  const written: string[] = [];
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
    t = await startTestApp({ env: { LOG_LEVEL: 'info', ...env } });
  });
  afterAll(async () => {
    spy.mockRestore();
    await t.close();
  });

  it('log every request with its id, without its secrets', async () => {
    const password = 'a secret p4ssword';
    const person = await registerPerson(t, 'Logged', undefined, password);
    const project = await createProject(person.client, 'Logs', 'LOG');
    const agent = await createAgent(person.client, project.id);
    await agent.client.get('/agent/me');
    // Signs in by login, then reads with a secret-looking query string.
    const anon = new Client(t.api);
    await anon.post('/auth/login', { email: person.email, password }, { headers: { 'x-request-id': 'login-1' } });
    const board = await anon.get(`/projects/${project.id}/board?token=svcr_querysecret`);
    const reset = await person.client.post(`/projects/${project.id}/members/${person.user.id}/reset`);
    const logs = written.join('');
    if (format === 'pretty') {
      expect(logs).toMatch(/POST \/api\/auth\/login 200 [\d.]+ms 127\.0\.0\.1 \[login-1\]/);
      expect(logs).toContain(`GET /api/projects/${project.id}/board 200`);
      expect(logs).toContain(`[${board.headers.get('x-request-id')}]`);
    } else {
      const lines = logs.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((l) => l.reqId === 'login-1')).toMatchObject({ level: 'info', method: 'POST', path: '/api/auth/login', route: '/api/auth/login', status: 200 });
      expect(lines.find((l) => l.reqId === board.headers.get('x-request-id'))).toMatchObject({
        path: `/api/projects/${project.id}/board`,
        route: '/api/projects/:projectId/board',
        status: 200,
      });
    }
    for (const secret of [password, person.client.cookie!, agent.token, reset.body.token, 'svcr_querysecret']) {
      expect(logs).not.toContain(secret);
    }
  });
});
