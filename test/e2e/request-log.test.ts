import { Client, createAgent, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/** Request logs name method, path, status and time: never a password, a session id or a token. */
describe('request logs', () => {
  let t: TestApp;
  const written: string[] = [];
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'info' } });
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterAll(async () => {
    spy.mockRestore();
    await t.close();
  });

  it('log every request without its secrets', async () => {
    const password = 'a secret p4ssword';
    const person = await registerPerson(t, 'Logged', undefined, password);
    const project = await createProject(person.client, 'Logs', 'LOG');
    const agent = await createAgent(person.client, project.id);
    await agent.client.get('/agent/me');
    // Signs in by login, then reads with a secret-looking query string.
    const anon = new Client(t.api);
    await anon.post('/auth/login', { email: person.email, password });
    await anon.get(`/projects/${project.id}/board?token=svcr_querysecret`);
    const reset = await person.client.post(`/projects/${project.id}/members/${person.user.id}/reset`);
    const logs = written.join('');
    expect(logs).toMatch(/POST \/api\/auth\/login 200/);
    expect(logs).toMatch(new RegExp(`GET /api/projects/${project.id}/board 200`));
    for (const secret of [password, person.client.cookie!, agent.token, reset.body.token, 'svcr_querysecret']) {
      expect(logs).not.toContain(secret);
    }
  });
});
