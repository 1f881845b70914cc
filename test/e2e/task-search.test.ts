import { createTaskFromBody, expectError } from '../support/fixtures';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { TaskAnswer } from '../support/answers';

interface Hit {
  task: { id: string; key: string; title: string; projectId: string; archived: boolean };
  where: 'key' | 'title' | 'description' | 'comment';
  snippet: string;
}
interface Found {
  hits: Hit[];
  total: number;
}

/** GET /api/search (extensions.md § 4). */
describe('GET /api/search', () => {
  let t: TestApp;
  let owner: Person;
  let stranger: Person;
  let web: string;
  let ops: string;
  let foreign: string;
  let agent: Client;

  const task = (title: string, description = '', projectId = web) => createTaskFromBody(owner.client, projectId, { title, description });

  async function search(query: Record<string, string>, c: Client = owner.client): Promise<Found> {
    const res = await c.get<Found>(`/search?${new URLSearchParams(query)}`);
    if (res.status !== 200) throw new Error(`search answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const ids = async (q: string, more: Record<string, string> = {}, c?: Client) => (await search({ q, ...more }, c)).hits.map((h) => h.task.id);
  const comment = async (taskId: string, body: string) => {
    const res = await owner.client.post(`/tasks/${taskId}/comments`, { body });
    if (res.status !== 201) throw new Error(`comment answered ${res.status}`);
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    stranger = await registerPerson(t, 'Sam');
    web = (await createProject(owner.client, 'Web', 'WEB')).id;
    ops = (await createProject(owner.client, 'Ops', 'OPS')).id;
    foreign = (await createProject(stranger.client, 'Theirs', 'THR')).id;
    agent = (await createAgent(owner.client, web, 'Robo')).client;
  });
  afterAll(() => t.close());

  it('matches the start of words, in any case, with or without accents, and no stemming', async () => {
    const deploy = await task('Deployment of the quasar service');
    const cafe = await task('Meet at the Café', 'bring the ÉCLAIRS');
    const inside = await task('Undeployable quasarish thing');

    expect(await ids('deplo')).toEqual([deploy.id]);
    expect(await ids('DEPLOYMENT')).toEqual([deploy.id]);
    expect(await ids('deployments')).toEqual([]);
    expect(await ids('cafe')).toEqual([cafe.id]);
    expect(await ids('CAFÉ')).toEqual([cafe.id]);
    expect(await ids('eclair')).toEqual([cafe.id]);
    // A word inside a longer word is not the start of a word: "quasarish" starts with "quasar".
    expect((await ids('quasar')).sort()).toEqual([deploy.id, inside.id].sort());
    expect(await ids('ployable')).toEqual([]);
    // Every word must match somewhere.
    expect(await ids('deploy quasar')).toEqual([deploy.id]);
    expect(await ids('deploy nothinglikethis')).toEqual([]);
  });

  it('finds words in descriptions and comments, also spread over the task and its comments', async () => {
    const described = await task('Plain one', 'The **zeppelin** must land before noon.');
    const commented = await task('Plain two');
    await comment(commented.id, 'The zeppelin was spotted over Halifax');
    const spread = await task('Zeppelin hangar');
    await comment(spread.id, 'needs a bigger door in Halifax');

    const zep = await search({ q: 'zeppelin' });
    expect(zep.total).toBe(3);
    // Title matches first, then the rest.
    expect(zep.hits[0]).toMatchObject({ task: { id: spread.id }, where: 'title', snippet: 'Zeppelin hangar' });
    expect(zep.hits.find((h) => h.task.id === described.id)).toMatchObject({ where: 'description', snippet: 'The zeppelin must land before noon.' });
    expect(zep.hits.find((h) => h.task.id === commented.id)).toMatchObject({ where: 'comment', snippet: 'The zeppelin was spotted over Halifax' });

    expect((await ids('zeppelin halifax')).sort()).toEqual([commented.id, spread.id].sort());
    expect(await ids('hangar door')).toEqual([spread.id]);
  });

  it('puts the task whose key is the query first, in any case', async () => {
    const many: TaskAnswer[] = [];
    for (let i = 0; i < 3; i++) many.push(await task(`Key probe ${i}`));
    const target = many[1];
    const mention = await task('Follow-up', `After ${target.key} lands`);
    const found = await search({ q: target.key.toLowerCase() });
    expect(found.hits[0]).toMatchObject({ task: { id: target.id, key: target.key, title: target.title, projectId: web, archived: false }, where: 'key' });
    expect(found.hits.map((h) => h.task.id)).toContain(mention.id);
    // A key of a project the caller is not in finds nothing.
    expect(await ids('THR-1')).toEqual([]);
  });

  it('orders title matches before descriptions, each by how well it matches, then newest change first', async () => {
    const older = await task('Xylograph one');
    const newer = await task('Xylograph two');
    const desc = await task('Other', 'xylograph in the description');
    const strong = await task('Xylograph xylograph', 'xylograph xylograph xylograph');
    // A forced clock: the older task last changed an hour ago.
    await t.sql.query(`UPDATE tasks SET updated_at = now() - interval '1 hour' WHERE id = $1`, [older.id]);
    expect(await ids('xylograph')).toEqual([strong.id, newer.id, older.id, desc.id]);
  });

  it('finds archived tasks (archived: true), never deleted ones nor other projects', async () => {
    const archived = await task('Quetzal archived');
    expect((await owner.client.post(`/tasks/${archived.id}/archive`)).status).toBe(200);
    const deleted = await task('Quetzal deleted');
    expect((await owner.client.delete(`/tasks/${deleted.id}`)).status).toBe(200);
    const other = await task('Quetzal elsewhere', '', ops);
    await createTaskFromBody(stranger.client, foreign, { title: 'Quetzal of a stranger' });

    const found = await search({ q: 'quetzal' });
    expect(found.hits.map((h) => h.task.id).sort()).toEqual([archived.id, other.id].sort());
    expect(found.hits.find((h) => h.task.id === archived.id)?.task.archived).toBe(true);
    expect(found.hits.find((h) => h.task.id === other.id)?.task).toMatchObject({ projectId: ops, key: other.key, archived: false });
    // projectId narrows to one project.
    expect(await ids('quetzal', { projectId: ops })).toEqual([other.id]);
    // The stranger finds their own only.
    expect((await search({ q: 'quetzal' }, stranger.client)).total).toBe(1);
  });

  it('answers 404 for a project the caller is not in, and keeps an agent in its own project', async () => {
    expectError(await owner.client.get(`/search?q=x&projectId=${foreign}`), 404, 'Project not found.');
    expectError(await owner.client.get(`/search?q=x&projectId=00000000-0000-4000-8000-000000000000`), 404, 'Project not found.');
    expectError(await owner.client.get(`/search?q=x&projectId=nope`), 400, 'That is not a project id.');

    const mine = await task('Narwhal in web');
    await task('Narwhal in ops', '', ops);
    expect(await ids('narwhal', {}, agent)).toEqual([mine.id]);
    expect(await ids('narwhal', { projectId: web }, agent)).toEqual([mine.id]);
    expectError(await agent.get(`/search?q=narwhal&projectId=${ops}`), 403, 'That token belongs to another project.');
    expectError(await new Client(t.api).get('/search?q=narwhal'), 401, 'Sign in first, or send an agent token.');
  });

  it('a member added later finds the project; limits are 1 to 50', async () => {
    const late = await registerPerson(t, 'Lee');
    const mine = await task('Okapi sighting');
    expect(await ids('okapi', {}, late.client)).toEqual([]);
    await addMember(owner.client, web, late);
    expect(await ids('okapi', {}, late.client)).toEqual([mine.id]);

    for (let i = 0; i < 3; i++) await task(`Limit lemur ${i}`);
    const page = await search({ q: 'lemur', limit: '2' });
    expect(page.hits).toHaveLength(2);
    expect(page.total).toBe(3);
    for (const limit of ['0', '51', '1.5', 'ten', '-1', '']) {
      expectError(await owner.client.get(`/search?q=lemur&limit=${limit}`), 400, 'Limit must be a whole number from 1 to 50.', `limit ${limit}`);
    }
    expect((await search({ q: 'lemur', limit: '50' })).total).toBe(3);
  });

  it('a query without words answers nothing; query syntax in the text is only text', async () => {
    await task('Plain words & more | stuff');
    for (const q of ['', '   ', '!!!', '&|:*()']) expect(await search({ q })).toEqual({ hits: [], total: 0 });
    expect(await search({})).toEqual({ hits: [], total: 0 });
    // tsquery operators and quotes in the query are separators, never syntax.
    expect((await search({ q: "plain & !words ' :* \\" })).total).toBeGreaterThanOrEqual(1);
    expect((await search({ q: "o'brien" })).total).toBe(0);
  });

  it('never answers 500 for odd query strings', async () => {
    const mine = await task('Ibis nesting');
    const raw = async (query: string) => {
      const res = await owner.client.get<Found>(`/search?${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await raw('q=%00ibis')).hits.map((h) => h.task.id)).toEqual([mine.id]);
    expect(await raw('q=a&q=b')).toEqual({ hits: [], total: 0 });
    expect((await raw(`q=${'ibis%20'.repeat(400)}`)).hits.map((h) => h.task.id)).toEqual([mine.id]);
    // A word longer than PostgreSQL indexes (2,047 bytes) is no word: it neither matches nor refuses.
    expect((await raw(`q=${encodeURIComponent('ibis ' + 'x'.repeat(3000))}`)).hits.map((h) => h.task.id)).toEqual([mine.id]);
  });

  it('keeps the snippet to 200 characters of plain text around the first match', async () => {
    const long = `${'lorem ipsum dolor sit amet '.repeat(30)}the **walrus** sleeps ${'consectetur adipiscing elit '.repeat(30)}`;
    const walrus = await task('Long one', long);
    const found = await search({ q: 'walrus' });
    expect(found.hits[0].task.id).toBe(walrus.id);
    const { snippet } = found.hits[0];
    expect(Array.from(snippet).length).toBeLessThanOrEqual(200);
    expect(snippet).toContain('the walrus sleeps');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).not.toMatch(/[*<>]/);
  });

  it('follows edits: a changed title is found by its new words only', async () => {
    const edited = await task('Pangolin before');
    expect((await owner.client.patch(`/tasks/${edited.id}`, { title: 'Armadillo after' })).status).toBe(200);
    expect(await ids('pangolin')).toEqual([]);
    expect(await ids('armadillo')).toEqual([edited.id]);
  });
});
