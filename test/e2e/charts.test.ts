import { randomUUID } from 'node:crypto';
import { createProperty, expectError, expectStatus } from '../support/fixtures';
import { aProject } from '../support/builders';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ChartDataAnswer, ProjectAnswer } from '../support/answers';

/** A person's charts: routes, rules and refusals (decisions › Charts); the data itself is in chart-history. */
describe('charts', () => {
  let t: TestApp;
  let pat: Person;
  let sam: Person;
  let robo: { client: Client };
  let alpha: ProjectAnswer;
  let beta: ProjectAnswer;
  let secret: ProjectAnswer;
  let statusA: { id: string };
  let statusSecret: { id: string };

  const create = (body: unknown, c: Client = pat.client) => c.post('/charts', body);
  const made = async (body: Record<string, unknown>) => (await expectStatus(create(body), 201)).chart;

  beforeAll(async () => {
    t = await startTestApp();
    pat = await registerPerson(t, 'Pat');
    sam = await registerPerson(t, 'Sam');
    ({ project: alpha, status: statusA } = await aProject(sam.client, { name: 'Alpha', key: 'AL' }));
    beta = await createProject(sam.client, 'Beta', 'BE');
    ({ project: secret, status: statusSecret } = await aProject(sam.client, { name: 'Secret', key: 'SE' }));
    await addMember(sam.client, alpha.id, pat);
    await addMember(sam.client, beta.id, pat);
    robo = await createAgent(sam.client, alpha.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('are made, listed, changed and deleted, answering { id, name, kind, projectIds, propertyId, createdAt }', async () => {
    const me = await registerPerson(t, 'Maker');
    await addMember(sam.client, alpha.id, me);
    await addMember(sam.client, beta.id, me);
    const res = await create({ name: ' Burn ', kind: 'burnup', projectIds: [alpha.id, beta.id, alpha.id], propertyId: statusA.id }, me.client);
    expect(res.status).toBe(201);
    const chart = res.body.chart;
    expect(Object.keys(chart)).toEqual(['id', 'name', 'kind', 'projectIds', 'propertyId', 'createdAt']);
    expect(chart).toMatchObject({ name: 'Burn', kind: 'burnup', projectIds: [alpha.id, beta.id], propertyId: null });
    const flow = (await expectStatus(create({ name: 'Flow', kind: 'flow', projectIds: [alpha.id], propertyId: statusA.id }, me.client), 201)).chart;
    expect(flow.propertyId).toBe(statusA.id);
    expect(await expectStatus(me.client.get('/charts'), 200)).toEqual({ charts: [chart, flow] });
    const changed = await expectStatus(me.client.patch(`/charts/${chart.id}`, { name: 'Renamed', projectIds: [beta.id], kind: 'flow' }), 200);
    expect(changed).toEqual({ chart: { ...chart, name: 'Renamed', projectIds: [beta.id] } });
    expect(await expectStatus(me.client.delete(`/charts/${chart.id}`), 200)).toEqual({ ok: true });
    expect(await expectStatus(me.client.get('/charts'), 200)).toEqual({ charts: [flow] });
    expectError(await me.client.delete(`/charts/${chart.id}`), 404, 'Chart not found.');
  });

  it('refuse each bad create body with the contract sentence', async () => {
    const base = { name: 'C', kind: 'burnup', projectIds: [alpha.id] };
    const cases: [unknown, number, string][] = [
      [{ ...base, name: undefined }, 400, 'Name cannot be empty.'],
      [{ ...base, name: null }, 400, 'Name cannot be empty.'],
      [{ ...base, name: 'x'.repeat(101) }, 400, 'Name is too long (max 100 characters).'],
      [{ ...base, kind: 'pie' }, 400, 'Kind must be one of: burnup, flow, throughput.'],
      [{ ...base, kind: undefined }, 400, 'Kind must be one of: burnup, flow, throughput.'],
      [{ ...base, projectIds: undefined }, 400, 'Name between 1 and 20 projects.'],
      [{ ...base, projectIds: [] }, 400, 'Name between 1 and 20 projects.'],
      [{ ...base, projectIds: Array.from({ length: 21 }, () => randomUUID()) }, 400, 'Name between 1 and 20 projects.'],
      [{ ...base, projectIds: ['nope'] }, 400, 'That is not a project id.'],
      [{ ...base, projectIds: [alpha.id, secret.id] }, 404, 'Project not found.'],
      [{ ...base, projectIds: [randomUUID()] }, 404, 'Project not found.'],
      [{ ...base, kind: 'flow' }, 400, 'A flow chart needs a select property.'],
      [{ ...base, kind: 'flow', propertyId: null }, 400, 'A flow chart needs a select property.'],
      [{ ...base, kind: 'flow', propertyId: statusSecret.id }, 404, 'Property not found.'],
      [{ ...base, kind: 'flow', propertyId: randomUUID() }, 404, 'Property not found.'],
    ];
    for (const [body, status, message] of cases) expectError(await create(body), status, message, JSON.stringify(body));
    const notes = await createProperty(sam.client, alpha.id, 'Notes', 'text');
    const tags = await createProperty(sam.client, alpha.id, 'Tags', 'multi_select', ['x']);
    for (const p of [notes, tags]) expectError(await create({ ...base, kind: 'flow', propertyId: p.id }), 400, 'A flow chart needs a select property.');
    // A select of a project the chart does not name is not found.
    const size = await createProperty(sam.client, beta.id, 'Size', 'select', ['S']);
    expectError(await create({ ...base, kind: 'flow', propertyId: size.id }), 404, 'Property not found.');
    expect((await made({ ...base, kind: 'flow', projectIds: [alpha.id, beta.id], propertyId: size.id })).propertyId).toBe(size.id);
    expect(await expectStatus(pat.client.get('/charts'), 200)).toMatchObject({ charts: [{ propertyId: size.id }] });
  });

  it('refuse a bad change the same way, and a flow property the new projects do not hold', async () => {
    const flow = await made({ name: 'F', kind: 'flow', projectIds: [alpha.id], propertyId: statusA.id });
    expectError(await pat.client.patch(`/charts/${flow.id}`, { name: '' }), 400, 'Name cannot be empty.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { projectIds: [] }), 400, 'Name between 1 and 20 projects.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { projectIds: [secret.id] }), 404, 'Project not found.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { projectIds: [beta.id] }), 404, 'Property not found.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { propertyId: null }), 400, 'A flow chart needs a select property.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { propertyId: 'junk' }), 400, 'That is not a property id.');
    // The fields are refused in their order: the name before the property, the projects after it.
    expectError(await pat.client.patch(`/charts/${flow.id}`, { name: '', propertyId: 'junk' }), 400, 'Name cannot be empty.');
    expectError(await pat.client.patch(`/charts/${flow.id}`, { projectIds: [secret.id], propertyId: 'junk' }), 400, 'That is not a property id.');
    expect((await expectStatus(pat.client.get(`/charts/${flow.id}/data`), 200)).chart).toEqual(flow);
    // Only a flow chart reads a property: another kind ignores even a malformed one.
    const burn = await made({ name: 'B', kind: 'burnup', projectIds: [alpha.id] });
    expect((await expectStatus(pat.client.patch(`/charts/${burn.id}`, { propertyId: 'junk' }), 200)).chart).toEqual(burn);
  });

  it('refuse bad days: malformed, backwards, more than 366 (both ends counted)', async () => {
    const c = await made({ name: 'Days', kind: 'throughput', projectIds: [alpha.id] });
    const q = (query: string) => pat.client.get<ChartDataAnswer>(`/charts/${c.id}/data${query}`);
    expectError(await q('?from=2025-02-30'), 400, 'From needs a date like YYYY-MM-DD.');
    expectError(await q('?from=01/02/2025'), 400, 'From needs a date like YYYY-MM-DD.');
    expectError(await q('?to=tomorrow'), 400, 'To needs a date like YYYY-MM-DD.');
    expectError(await q('?from=2025-03-02&to=2025-03-01'), 400, 'From must not be after To.');
    expectError(await q('?from=2024-01-01&to=2025-01-01'), 400, 'Ask for at most 366 days.');
    const year = await expectStatus(q('?from=2024-01-01&to=2024-12-31'), 200);
    expect(year.days).toHaveLength(366);
    expect(year.series).toEqual([{ key: 'done', name: 'Done', color: null, values: new Array(366).fill(0) }]);
    const one = await expectStatus(q('?from=2025-01-01&to=2025-01-01'), 200);
    expect([one.from, one.to, one.days]).toEqual(['2025-01-01', '2025-01-01', ['2025-01-01']]);
  });

  it('are nobody else\'s: another person gets 404 Chart not found., an agent 403, a malformed id 400', async () => {
    const c = await made({ name: 'Mine', kind: 'burnup', projectIds: [alpha.id] });
    const routes: [string, string, unknown?][] = [
      ['PATCH', `/charts/${c.id}`, { name: 'Theirs' }],
      ['DELETE', `/charts/${c.id}`],
      ['GET', `/charts/${c.id}/data`],
    ];
    for (const [method, path, body] of routes) expectError(await sam.client.request(method, path, body), 404, 'Chart not found.', `${method} ${path}`);
    expect((await expectStatus(sam.client.get('/charts'), 200)).charts).toEqual([]);
    for (const [method, path, body] of [...routes, ['GET', '/charts'], ['POST', '/charts', { name: 'Bot', kind: 'burnup', projectIds: [alpha.id] }]] as [string, string, unknown?][]) {
      expectError(await robo.client.request(method, path, body), 403, 'Only a person can do this.', `${method} ${path}`);
    }
    for (const [method, path] of [['PATCH', '/charts/nope'], ['DELETE', '/charts/nope'], ['GET', '/charts/nope/data']]) {
      expectError(await pat.client.request(method, path, method === 'PATCH' ? {} : undefined), 400, 'That is not a chart id.', `${method} ${path}`);
    }
    expect((await expectStatus(pat.client.get(`/charts/${c.id}/data`), 200)).chart.name).toBe('Mine');
  });

  it('draw no series for a flow chart whose property\'s project the person left', async () => {
    const me = await registerPerson(t, 'Leaver');
    await addMember(sam.client, alpha.id, me);
    await addMember(sam.client, beta.id, me);
    const flow = (await expectStatus(create({ name: 'F', kind: 'flow', projectIds: [alpha.id, beta.id], propertyId: statusA.id }, me.client), 201)).chart;
    expect((await expectStatus(me.client.get(`/charts/${flow.id}/data`), 200)).series.map((s) => s.name)).toEqual(['To do', 'In progress', 'Done', 'No Status']);
    await expectStatus(sam.client.delete(`/projects/${alpha.id}/members/${me.user.id}`), 200);
    const after = await expectStatus(me.client.get(`/charts/${flow.id}/data`), 200);
    expect(after.chart.projectIds).toEqual([beta.id]);
    expect(after.series).toEqual([]);
  });
});

describe('chart data over feed lines older than what charts read', () => {
  let t: TestApp;
  let pat: Person;

  beforeAll(async () => {
    t = await startTestApp();
    pat = await registerPerson(t, 'Pat');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('takes a task\'s value at creation from its first newer line when its created line says nothing, else its current value', async () => {
    const { project: p, status } = await aProject(pat.client, { name: 'Old', key: 'OLD' });
    const [todo, , done] = status.options.map((o) => o.id);
    const moved = (await expectStatus(pat.client.post(`/projects/${p.id}/tasks`, { title: 'Moved', values: { [status.id]: todo } }), 201)).task;
    const still = (await expectStatus(pat.client.post(`/projects/${p.id}/tasks`, { title: 'Still', values: { [status.id]: done } }), 201)).task;
    // Created lines as they were written before they carried the task's selects (storage itself: lines of an older release).
    await t.sql.query(`UPDATE activity SET data = '{}' WHERE project_id = $1 AND kind = 'created'`, [p.id]);
    await expectStatus(pat.client.put(`/tasks/${moved.id}/values/${status.id}`, { value: done }), 200);
    const chart = (await expectStatus(pat.client.post('/charts', { name: 'Old', kind: 'burnup', projectIds: [p.id] }), 201)).chart;
    const today = new Date().toISOString().slice(0, 10);
    const res = await expectStatus(pat.client.get(`/charts/${chart.id}/data?from=${today}&to=${today}`), 200);
    expect(res.series).toEqual([
      { key: 'total', name: 'Total', color: null, values: [2] },
      { key: 'done', name: 'Done', color: null, values: [2] },
    ]);
    const flow = (await expectStatus(pat.client.post('/charts', { name: 'F', kind: 'flow', projectIds: [p.id], propertyId: status.id }), 201)).chart;
    const f = await expectStatus(pat.client.get(`/charts/${flow.id}/data?from=${today}&to=${today}`), 200);
    expect(f.series.map((s) => [s.name, s.values[0]])).toEqual([['To do', 0], ['In progress', 0], ['Done', 2], ['No Status', 0]]);
    expect(still.id).toBeDefined();
  });
});

describe('chart data when a when rule drops the charted select', () => {
  let t: TestApp;
  let pat: Person;

  beforeAll(async () => {
    t = await startTestApp();
    pat = await registerPerson(t, 'Pat');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('counts the dropped value as gone from the moment of the write that hid it', async () => {
    const p = await createProject(pat.client, 'Rules', 'RU');
    const kind = await createProperty(pat.client, p.id, 'Kind', 'select', ['Bug', 'Chore']);
    const phase = await createProperty(pat.client, p.id, 'Phase', 'select', ['Triage', 'Fix']);
    const [bug, chore] = kind.options.map((o) => o.id);
    await expectStatus(pat.client.patch(`/properties/${phase.id}`, { when: { propertyId: kind.id, optionIds: [bug] } }), 200);
    const task = (await expectStatus(pat.client.post(`/projects/${p.id}/tasks`, { title: 'Bug', values: { [kind.id]: bug, [phase.id]: phase.options[0].id } }), 201)).task;
    const flow = (await expectStatus(pat.client.post('/charts', { name: 'Phase', kind: 'flow', projectIds: [p.id], propertyId: phase.id }), 201)).chart;
    const today = new Date().toISOString().slice(0, 10);
    const counts = async () => (await expectStatus(pat.client.get(`/charts/${flow.id}/data?from=${today}&to=${today}`), 200)).series.map((s) => [s.name, s.values[0]]);
    expect(await counts()).toEqual([['Triage', 1], ['Fix', 0], ['No Phase', 0]]);
    const res = await expectStatus(pat.client.put(`/tasks/${task.id}/values/${kind.id}`, { value: chore }), 200);
    expect(res.dropped).toEqual([{ taskId: task.id, propertyId: phase.id, name: 'Phase' }]);
    expect(await counts()).toEqual([['Triage', 0], ['Fix', 0], ['No Phase', 1]]);
  });
});
