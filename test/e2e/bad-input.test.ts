/**
 * Bad input never becomes a 500 (decisions.md › Security): a NUL in a query string or a path
 * parameter is stripped like one in a body, a timestamp PostgreSQL would refuse is the field's
 * 400, and a number too large for its integer column gets its field's 400 sentence. One test per
 * place a query string or a path string reaches SQL, and per input that lands in an integer column.
 */
import { createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const AFTER = 'after must be a timestamp like 2026-01-31T12:00:00.000Z.';

describe('bad input', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let taskId: string;
  let viewId: string;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Owner');
    projectId = (await createProject(owner.client, 'Inputs', 'INP')).id;
    taskId = (await owner.client.post(`/projects/${projectId}/tasks`, { title: 'Find me', description: 'quokka ab' })).body.task.id;
    expect((await owner.client.post(`/tasks/${taskId}/archive`)).status).toBe(200);
    viewId = (await owner.client.post(`/projects/${projectId}/views`, { name: 'Everything', kind: 'list' })).body.view.id;
  });
  afterAll(() => t.close());

  it('strips a NUL from the search words', async () => {
    for (const q of ['%00', 'quo%00kka', '%00%00a%00b', 'a&q=%00']) {
      const res = await owner.client.get(`/projects/${projectId}/search?q=${q}`);
      expect([q, res.status]).toEqual([q, 200]);
    }
    const found = await owner.client.get(`/projects/${projectId}/search?q=quo%00kka`);
    expect(found.body.total).toBe(1);
  });

  it('answers activity paging with NUL or impossible timestamps as its 400s', async () => {
    const feed = (query: string) => owner.client.get(`/projects/${projectId}/activity?${query}`);
    // Stripped like a body's NUL: the timestamp around it reads as it would without it.
    expect((await feed('after=2026-01-01T00:00:00Z%00')).status).toBe(200);
    for (const after of ['%00', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00%2B20:00']) {
      const res = await feed(`after=${after}`);
      expect([after, res.status, res.body]).toEqual([after, 400, { error: AFTER }]);
    }
    for (const afterId of ['%00', `${'0'.repeat(8)}-0000-0000-0000-00000000000%00`]) {
      expect((await feed(`after=2026-01-01T00:00:00Z&afterId=${afterId}`)).body).toEqual({ error: 'afterId must be the id of a feed line.' });
    }
    for (const limit of ['%00', '2147483648', '1e15']) {
      expect([limit, (await feed(`limit=${limit}`)).body]).toEqual([limit, { error: 'limit is a whole number from 1 to 500.' }]);
    }
    // An offset is read as the same instant in UTC, and the cursor handed out pages exactly.
    expect((await feed('after=2026-01-01T00:00:00%2B01:00')).status).toBe(200);
    const first = await feed('limit=1');
    expect(first.body.next).not.toBeNull();
    const next = await feed(`limit=1&after=${encodeURIComponent(first.body.next!.after)}&afterId=${first.body.next!.afterId}`);
    expect(next.status).toBe(200);
    expect(next.body.activity[0].id).not.toBe(first.body.activity[0].id);
  });

  it('answers view task paging and run paging with a NUL as if it were not there', async () => {
    for (const query of ['after=%00', 'limit=%00', 'limit=2147483648', 'limit=1e15']) {
      const res = await owner.client.get(`/views/${viewId}/tasks?${query}`);
      expect([query, res.status]).toEqual([query, query === 'after=%00' ? 200 : 400]);
    }
    expect((await owner.client.get(`/views/${viewId}/tasks?after=${taskId}%00`)).status).toBe(200);
    expect((await owner.client.get(`/tasks/${taskId}/runs?before=%00`)).body).toEqual({ error: 'Name the run to read before, as ?before=.' });
    expect((await owner.client.get(`/tasks/${taskId}/runs?before=%00x`)).body).toEqual({ error: 'That is not a run id.' });
    expect((await owner.client.get(`/tasks/${taskId}/runs?before=${taskId}%00`)).status).toBeLessThan(500);
  });

  it('strips a NUL from a path parameter that reaches SQL as text', async () => {
    const res = await owner.client.delete(`/projects/${projectId}/invites/nobody%00@example.com`);
    expect(res.status).toBeLessThan(500);
    for (const path of [`/tasks/${taskId}%00`, `/projects/${projectId}%00/members/%00`, `/projects/${projectId}/webhooks/%00`]) {
      const answer = await owner.client.get(path);
      expect([path, answer.status]).toEqual([path, expect.any(Number)]);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('answers a run report with a stepIndex too large for its column as its 400', async () => {
    const robo = await createAgent(owner.client, projectId);
    const live = (await owner.client.post(`/projects/${projectId}/tasks`, { title: 'Run it' })).body.task.id;
    const run = (await robo.client.post(`/tasks/${live}/run`, { goal: 'Go', steps: ['a', 'b'] })).body.run;
    for (const raw of ['2147483648', '1e15', '9007199254740993', '1e308']) {
      const res = await robo.client.patch(`/runs/${run.id}`, undefined, { raw: `{"stepIndex": ${raw}}` });
      expect([raw, res.status, res.body]).toEqual([raw, 400, { error: 'stepIndex must be a whole number, zero or more.' }]);
    }
    for (const reportFor of [1e15, 2147483648, 1e308]) {
      const res = await robo.client.patch(`/runs/${run.id}`, { reportFor });
      expect([reportFor, res.status, res.body]).toEqual([reportFor, 400, { error: 'reportFor is a number of minutes above zero.' }]);
    }
    const ok = await robo.client.patch(`/runs/${run.id}`, { stepIndex: 2_147_483_647 });
    expect(ok.status).toBe(200);
  });
});
