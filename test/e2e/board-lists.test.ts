import { TaskQuery } from '@board/persistence';
import { createProperty, createTask, expectStatus } from '../support/fixtures';
import { readTask } from '../support/builders-a';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * The board's task lists are written as JSON text straight from the rows (timestamps as text,
 * values as the jsonb's text). They must say exactly what the object-built board shape says:
 * `TaskQuery.boardTasks`, which create answers and view reads use, is the reference here.
 */
describe('board lists written as text', () => {
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Lena');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('equals the object-built board shape for awkward text, timestamps, values, blockers and parts', async () => {
    const p = await createProject(owner.client, 'Lists', 'LST');
    const status = await createProperty(owner.client, p.id, 'Stage', 'select', ['Open', 'Closed']);
    const tags = await createProperty(owner.client, p.id, 'Tags', 'multi_select', ['a', 'b']);
    const closed = status.options.find((o) => o.name === 'Closed')!.id;
    const open = status.options.find((o) => o.name === 'Open')!.id;
    expect((await owner.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: status.id, optionIds: [closed] } })).status).toBe(200);

    const titles = ['Quote " and \\ backslash', 'Line\nbreak\ttab', 'Emoji 🚀 and \u2028 separator', 'Ünïcödé ✓', '<script>&amp;</script>'];
    const made = [];
    for (const title of titles) made.push(await createTask(owner.client, p.id, title));
    const [a, b, c, d, e] = made;
    await owner.client.patch(`/tasks/${a.id}`, { description: 'Multi\nline "quoted" \\ text' });
    await owner.client.put(`/tasks/${a.id}/values/${status.id}`, { value: open });
    await owner.client.put(`/tasks/${a.id}/values/${tags.id}`, { value: tags.options.map((o) => o.id) });
    await owner.client.put(`/tasks/${b.id}/values/${status.id}`, { value: closed });
    // Blockers: b is over (Closed), c is not.
    expect((await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: b.id })).status).toBeLessThan(300);
    expect((await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: c.id })).status).toBeLessThan(300);
    // Parts: d and e are parts of c; e is archived (counts as done).
    for (const part of [d, e]) await expectStatus(owner.client.put(`/tasks/${part.id}/parent`, { parentId: c.id }), 200);
    expect((await owner.client.post(`/tasks/${e.id}/archive`, {})).status).toBeLessThan(300);
    expect((await owner.client.post(`/tasks/${a.id}/checklist`, { text: 'One' })).status).toBe(201);
    expect((await owner.client.post(`/tasks/${a.id}/comments`, { body: 'Hello' })).status).toBe(201);
    // Timestamps with no fraction, a short one and a full microsecond one (a forced clock: the API stamps now).
    await t.sql.query(`UPDATE tasks SET created_at = '2026-01-02 03:04:05+00', updated_at = '2026-01-02 03:04:05.5+00' WHERE id = $1`, [b.id]);
    await t.sql.query(`UPDATE tasks SET created_at = '2026-03-04 05:06:07.123456+00', updated_at = '2026-03-04 05:06:07.999999+00' WHERE id = $1`, [c.id]);
    // Storage itself: a value the API would not write, with nesting and escapes, passes through as stored.
    await t.sql.query(`UPDATE tasks SET "values" = "values" || $2::jsonb WHERE id = $1`, [d.id, JSON.stringify({ odd: { deep: [1, 'two', null, { 'k"': 'v\\n' }] } })]);

    const res = await owner.client.get(`/projects/${p.id}/board`);
    expect(res.status).toBe(200);
    const board = res.body;
    expect([board.project.key, board.project.doneWhen]).toEqual(['LST', { propertyId: status.id, optionIds: [closed] }]);
    const live = board.tasks.map((x) => x.id);
    const reference = await t.app.get(TaskQuery).boardTasks(p.id, board.project.key, board.project.doneWhen ?? null, live);
    expect(board.tasks).toEqual(JSON.parse(JSON.stringify(reference)));
    expect(board.tasks.find((x) => x.id === a.id)!.blockedBy).toEqual([`LST-${c.number}`]);
    expect(board.tasks.find((x) => x.id === c.id)!.parts).toEqual({ done: 1, total: 2 });
    expect(board.tasks.find((x) => x.id === a.id)).toMatchObject({ checklistTotal: 1, commentCount: 1 });
    expect(board.tasks.find((x) => x.id === b.id)!.createdAt).toBe('2026-01-02T03:04:05.000Z');
    expect(board.tasks.find((x) => x.id === b.id)!.updatedAt).toBe('2026-01-02T03:04:05.500Z');
    expect(board.tasks.find((x) => x.id === c.id)!.updatedAt).toBe('2026-03-04T05:06:07.999Z');

    // The archived list says what the full read of the one archived task says.
    const archived = await readTask(owner.client, e.id);
    expect(archived.archivedAt).toEqual(expect.any(String));
    expect(board.archived).toEqual([
      { id: e.id, number: e.number, key: `LST-${e.number}`, title: archived.title, description: archived.description, position: archived.position, archivedAt: archived.archivedAt },
    ]);
    // The settings read's first three are the board's first three.
    const settings = await owner.client.get(`/projects/${p.id}/settings`);
    expect(settings.status).toBe(200);
    expect(settings.body.tasks).toEqual(board.tasks.slice(0, 3));
  });
  it('after each write, reuses the lists built before and says what a build from scratch says', async () => {
    const p = await createProject(owner.client, 'Reuse', 'RSE');
    const status = await createProperty(owner.client, p.id, 'Stage', 'select', ['Open', 'Closed']);
    const closed = status.options.find((o) => o.name === 'Closed')!.id;
    const open = status.options.find((o) => o.name === 'Open')!.id;
    expect((await owner.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: status.id, optionIds: [closed] } })).status).toBe(200);
    const made = [];
    for (const title of ['One 🚀', 'Two "q"', 'Three', 'Four', 'Five', 'Six']) made.push(await createTask(owner.client, p.id, title));
    const [a, b, c, d, e, f] = made;
    expect((await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: b.id })).status).toBeLessThan(300);
    for (const part of [d, e]) await expectStatus(owner.client.put(`/tasks/${part.id}/parent`, { parentId: c.id }), 200);

    const queries = t.app.get(TaskQuery);
    const spy = jest.spyOn(queries, 'boardLists');
    // What the project is at each step, so the scratch build below is made from the project as written.
    let key = 'RSE';
    let doneWhen: { propertyId: string; optionIds: string[] } | null = { propertyId: status.id, optionIds: [closed] };
    const check = async (step: string) => {
      const board = (await owner.client.get(`/projects/${p.id}/board`)).body;
      expect([step, board.project.key, board.project.doneWhen ?? null]).toEqual([step, key, doneWhen]);
      const scratch = await queries.boardLists(p.id, board.project.key, board.project.doneWhen ?? null, null);
      expect([step, board.tasks]).toEqual([step, JSON.parse(scratch.tasksJson.toString())]);
      expect([step, board.archived]).toEqual([step, JSON.parse(scratch.archivedJson.toString())]);
      return board;
    };
    await check('first read');
    const writes: [string, () => Promise<unknown>][] = [
      ['blocker b closed: a no longer blocked', () => owner.client.put(`/tasks/${b.id}/values/${status.id}`, { value: closed })],
      ['blocker b open again', () => owner.client.put(`/tasks/${b.id}/values/${status.id}`, { value: open })],
      ['part d closed: c counts it', () => owner.client.put(`/tasks/${d.id}/values/${status.id}`, { value: closed })],
      ['part e archived', () => owner.client.post(`/tasks/${e.id}/archive`, {})],
      ['checklist item on f', () => owner.client.post(`/tasks/${f.id}/checklist`, { text: 'Item' })],
      ['comment on a', () => owner.client.post(`/tasks/${a.id}/comments`, { body: 'Hi' })],
      ['f moved to the top', () => owner.client.post(`/tasks/${f.id}/move`, { beforeId: a.id })],
      ['title of c', () => owner.client.patch(`/tasks/${c.id}`, { title: 'Three, renamed ✓' })],
      ['b deleted', () => owner.client.delete(`/tasks/${b.id}`)],
      ['b restored', () => owner.client.post(`/tasks/${b.id}/restore`, {})],
      ['a new task', () => createTask(owner.client, p.id, 'Seven')],
      // Storage itself: a write that goes around the app.
      ['description in SQL', () => t.sql.query(`UPDATE tasks SET description = 'From SQL \u2028' WHERE id = $1`, [a.id])],
      ['e unarchived', () => owner.client.delete(`/tasks/${e.id}/archive`)],
      ['doneWhen dropped', () => owner.client.patch(`/projects/${p.id}`, { doneWhen: null })],
      ['project key changed', () => owner.client.patch(`/projects/${p.id}`, { key: 'RSX' })],
      ['after the key change', () => owner.client.put(`/tasks/${a.id}/values/${status.id}`, { value: open })],
    ];
    for (const [step, write] of writes) {
      const res: unknown = await write();
      if (step === 'doneWhen dropped') doneWhen = null;
      if (step === 'project key changed') key = 'RSX';
      if (res !== null && typeof res === 'object' && 'status' in res && typeof res.status === 'number') expect({ step, written: res.status < 300 }).toEqual({ step, written: true });
      spy.mockClear();
      await check(step);
      // The board read rebuilt its lists from the previous ones (the key change starts afresh).
      const passed = spy.mock.calls[0]?.[3] ?? null;
      expect({ step, reused: passed !== null }).toEqual({ step, reused: true });
    }
    spy.mockRestore();
  });
});
