import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

describe('HTTP conventions', () => {
  let t: TestApp;
  let anon: Client;

  beforeAll(async () => {
    t = await startTestApp();
    anon = new Client(t.api);
  });
  afterAll(() => t.close());

  it('answers GET /api/version with the package version and api 1', async () => {
    const res = await anon.get('/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: require('../../package.json').version, api: 1 });
  });

  it('answers GET /api/health with ok while the database answers', async () => {
    const res = await anon.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('puts X-Service-Version on every answer, failures included', async () => {
    for (const res of [await anon.get('/version'), await anon.get('/nowhere'), await anon.get('/projects')]) {
      expect(res.headers.get('x-service-version')).toBe(require('../../package.json').version);
    }
  });

  it('answers an unknown route 404 Not found. in the envelope', async () => {
    const res = await anon.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found.' });
    expect((await anon.post('/nothing-here', {})).body).toEqual({ error: 'Not found.' });
  });

  it('refuses a body that does not parse', async () => {
    const res = await anon.post('/auth/login', undefined, { raw: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body must be JSON.' });
  });

  it('reads a body as JSON whatever its content type', async () => {
    const res = await anon.post('/auth/login', undefined, { raw: 'not json', headers: { 'content-type': 'text/plain' } });
    expect(res.body).toEqual({ error: 'The request body must be JSON.' });
  });

  it('refuses a JSON body that is not an object', async () => {
    for (const raw of ['[1,2]', '"text"', '42']) {
      const res = await anon.post('/auth/login', undefined, { raw });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The request body must be JSON.' });
    }
  });

  it('refuses nesting deeper than any route reads without a 500', async () => {
    const raw = '{"name":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const res = await anon.post('/auth/login', undefined, { raw });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body must be JSON.' });
  });

  it('stores text with NUL characters and lone surrogates without a 500', async () => {
    const owner = await registerPerson(t);
    const res = await owner.client.patch('/auth/me', undefined, { raw: '{"name":"Ann\\u0000ie \\ud800x"}' });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe('Annie \ufffdx');
  });

  it('takes 1e309 as a value that is not text rather than failing', async () => {
    const owner = await registerPerson(t);
    const res = await owner.client.patch('/auth/me', undefined, { raw: '{"name":1e309}' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Name must be text.' });
  });

  describe('ids in paths', () => {
    let owner: Client;
    let projectId: string;
    beforeAll(async () => {
      owner = (await registerPerson(t)).client;
      projectId = (await createProject(owner)).id;
    });

    it('refuses an id that is not a UUID with its kind', async () => {
      const res = await owner.get('/projects/not-a-uuid/rules');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'That is not a project id.' });
    });

    it('lets an upper-case UUID pass', async () => {
      const res = await owner.get(`/projects/${projectId.toUpperCase()}/rules`);
      expect(res.status).toBe(200);
    });

    it('refuses a UUID with surrounding space', async () => {
      const res = await owner.get(`/projects/${encodeURIComponent(' ' + projectId)}/rules`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'That is not a project id.' });
    });

    it('says "an" before agent', async () => {
      const res = await owner.patch(`/projects/${projectId}/agents/nope`, { name: 'x' });
      expect(res.body).toEqual({ error: 'That is not an agent id.' });
    });
  });
});
