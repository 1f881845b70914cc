import { createTaskFromBody, expectStatus } from '../support/fixtures';
import { Agent, aTeam } from '../support/builders';
import { Client, createProject, Person, startTestApp, TestApp } from '../support/test-app';
import type { SearchAnswer, TaskAnswer } from '../support/answers';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('GET /api/projects/:projectId/search', () => {
  let t: TestApp;
  let owner: Person;
  let outsider: Person;
  let agent: Agent;
  let projectId: string;
  let otherProjectId: string;
  /** Archive moments handed out in order, one minute apart, so "newest archived first" is exact. */
  let archiveClock = Date.parse('2030-01-01T00:00:00Z');

  const newTask = (title: string, description: string, projectOf = projectId) =>
    createTaskFromBody(owner.client, projectOf, { title, description });

  /** An archived task, archived through the route, then given a distinct archive moment. */
  async function archived(title: string, description: string, projectOf = projectId) {
    const task = await newTask(title, description, projectOf);
    const res = await owner.client.post(`/tasks/${task.id}/archive`);
    if (res.status !== 200) throw new Error(`archive failed: ${res.status}`);
    archiveClock += 60_000;
    const at = new Date(archiveClock);
    // A forced clock: each archive a minute after the last, so the newest-first order is certain.
    await t.sql.query('UPDATE tasks SET archived_at = $2 WHERE id = $1', [task.id, at]);
    return { ...task, archivedAt: at.toISOString() };
  }

  const search = async (q: string | undefined, c: Client = owner.client, projectOf = projectId) => {
    const res = await c.get<SearchAnswer>(`/projects/${projectOf}/search${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`);
    if (res.status !== 200) throw new Error(`search failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const hitIds = (body: SearchAnswer) => body.hits.map((h) => h.task.id);
  const hitTask = (task: TaskAnswer) => ({ id: task.id, number: task.number, key: task.key, title: task.title, position: task.position, archivedAt: task.archivedAt });

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, outsider, project: { id: projectId }, agent } = await aTeam(t, { name: 'Search', key: 'SRC' }));
    otherProjectId = (await createProject(owner.client, 'Other', 'OTS')).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds only archived tasks whose description holds every word, case-insensitively', async () => {
    const both = await archived('First', 'The Quokka met a zebra at noon.');
    const bothUpper = await archived('Second', 'ZEBRA crossing, QUOKKA waiting');
    await archived('One word', 'only a quokka here');
    await archived('Other word', 'only a zebra here');
    await newTask('Live', 'a live quokka and zebra are not archived');
    const binned = await archived('Binned', 'a deleted quokka zebra');
    expect((await owner.client.delete(`/tasks/${binned.id}`)).status).toBe(200);
    await archived('Foreign', 'quokka zebra in another project', otherProjectId);
    await archived('Title only', 'no words of the query', projectId).then(async (x) => {
      await expectStatus(owner.client.patch(`/tasks/${x.id}`, { title: 'quokka zebra in the title only' }), 200);
    });

    const body = await search('quokka Zebra');
    expect(body.total).toBe(2);
    expect(body.hits).toEqual([
      { task: hitTask(bothUpper), snippet: expect.any(String) },
      { task: hitTask(both), snippet: expect.any(String) },
    ]);
    for (const hit of body.hits) {
      expect(Object.keys(hit).sort()).toEqual(['snippet', 'task']);
      expect(Object.keys(hit.task).sort()).toEqual(['archivedAt', 'id', 'key', 'number', 'position', 'title']);
      expect(hit.task.archivedAt).toMatch(ISO);
      expect(hit.snippet.toLowerCase()).toMatch(/quokka|zebra/);
    }
    // Word order and spacing do not matter.
    expect(hitIds(await search('  ZEBRA\tquokka  '))).toEqual([bothUpper.id, both.id]);
    // One word more that only one description holds narrows it down.
    expect(hitIds(await search('quokka zebra noon'))).toEqual([both.id]);
    // Words inside longer words still count as held.
    expect(hitIds(await search('quok ebr'))).toEqual([bothUpper.id, both.id]);
  });

  it('answers at most 12 hits, newest archived first, with total counting all', async () => {
    const made: TaskAnswer[] = [];
    for (let i = 0; i < 15; i++) made.push(await archived(`Walrus report ${i}`.replace('Walrus', 'Seal'), `walrus sighting number ${i}`));
    const body = await search('WALRUS');
    expect(body.total).toBe(15);
    expect(body.hits).toHaveLength(12);
    expect(hitIds(body)).toEqual(made.slice().reverse().slice(0, 12).map((x) => x.id));
    expect(body.hits[0].task).toEqual(hitTask(made[14]));
    const times = body.hits.map((h) => Date.parse(h.task.archivedAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThan(times[i - 1]);
  });

  it('leaves out a task whose key and title already match', async () => {
    const inTitle = await archived('Lantern repair', 'the lantern is broken');
    const notInTitle = await archived('Repair', 'the lantern is broken too');
    const splitOverKeyAndTitle = await archived('Lantern', 'placeholder');
    await expectStatus(owner.client.patch(`/tasks/${splitOverKeyAndTitle.id}`, { description: `${splitOverKeyAndTitle.key} lantern notes` }), 200);

    const body = await search('lantern');
    expect(hitIds(body)).toEqual([notInTitle.id]);
    expect(body.total).toBe(1);
    // The title holds one word but not the other: the description is what found it.
    expect(hitIds(await search('lantern broken'))).toEqual([notInTitle.id, inTitle.id]);
    // The key and the title together hold every word.
    expect(hitIds(await search(`${splitOverKeyAndTitle.key} lantern`))).toEqual([]);
    expect(hitIds(await search(`${splitOverKeyAndTitle.key} notes`))).toEqual([splitOverKeyAndTitle.id]);
  });

  it('answers { hits: [], total: 0 } without words', async () => {
    await archived('Anything', 'any words at all');
    for (const q of [undefined, '', '   ', '\t\n']) {
      expect(await search(q)).toEqual({ hits: [], total: 0 });
    }
    expect(await search('nothing-holds-this')).toEqual({ hits: [], total: 0 });
  });

  it('reads % and _ (and backslash) in q as plain characters', async () => {
    const percent = await archived('P1', 'we are 100% sure');
    await archived('P2', 'we are 100 sure');
    const underscore = await archived('U1', 'call snake_case here');
    await archived('U2', 'call snakeXcase here');
    const slash = await archived('B1', 'path C:\\temp\\file');
    await archived('B2', 'path C:/temp/file');

    expect(hitIds(await search('100%'))).toEqual([percent.id]);
    expect(hitIds(await search('%'))).toEqual([percent.id]);
    expect(hitIds(await search('snake_case'))).toEqual([underscore.id]);
    expect(hitIds(await search('_'))).toEqual([underscore.id]);
    expect(hitIds(await search('c:\\temp'))).toEqual([slash.id]);
    expect((await search('%%')).total).toBe(0);
    expect((await search('__')).total).toBe(0);
  });

  it('is open to agents and answers 404 Project not found. to a non-member', async () => {
    const task = await archived('Agent read', 'ocelot prowls');
    const body = await search('ocelot', agent.client);
    expect(hitIds(body)).toEqual([task.id]);
    expect(await outsider.client.get(`/projects/${projectId}/search?q=ocelot`)).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
    expect(await owner.client.get(`/projects/nope/search?q=ocelot`)).toMatchObject({ status: 400, body: { error: 'That is not a project id.' } });
  });

  it('finds a task again once it is archived, and not once it is back on the board', async () => {
    const task = await newTask('Drifter', 'a narwhal drifts');
    expect((await search('narwhal')).total).toBe(0);
    expect((await owner.client.post(`/tasks/${task.id}/archive`)).status).toBe(200);
    expect(hitIds(await search('narwhal'))).toEqual([task.id]);
    expect((await owner.client.delete(`/tasks/${task.id}/archive`)).status).toBe(200);
    expect((await search('narwhal')).total).toBe(0);
  });
});
