import { createProperty, createTask, feedLines, listenChanges } from '../support/fixtures';
import { TaskValueRepository } from '@board/tasks';
import { feedLine, notice, silent, UnitOfWork, withEvents } from '@board/kernel';
import type { StoredValue } from '@board/properties';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer } from '../support/answers';

/**
 * A value write reads without locks and lands with one compare-and-set statement (falling back
 * to the row lock when it keeps losing): simultaneous writes must never lose one another.
 */
describe('simultaneous value writes', () => {
  let t: TestApp;
  let owner: Person;
  let project: ProjectAnswer;
  const stored = async (taskId: string) => (await t.sql.query(`SELECT "values" FROM tasks WHERE id = $1`, [taskId])).rows[0].values;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Rita');
    project = await createProject(owner.client, 'Races', 'RAC');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('keeps every one of 12 writes of different properties on one task, each with its line and notice', async () => {
    const props = [];
    for (let i = 0; i < 12; i++) props.push(await createProperty(owner.client, project.id, `Field ${i}`, 'number'));
    const task = await createTask(owner.client, project.id, 'Contended');
    const listener = await listenChanges(t.databaseUrl);
    try {
      const answers = await Promise.all(props.map((p, i) => owner.client.put(`/tasks/${task.id}/values/${p.id}`, { value: i + 1 })));
      expect(answers.map((a) => a.status)).toEqual(props.map(() => 200));
      expect(answers.map((a) => a.body.value)).toEqual(props.map((_, i) => i + 1));
      const values = await stored(task.id);
      for (const [i, p] of props.entries()) expect(values[p.id]).toBe(i + 1);
      const lines = await feedLines(t, task.id, 'value');
      expect(lines).toHaveLength(12);
      expect(new Set(lines.map((l) => l.data.property))).toEqual(new Set(props.map((p) => p.name)));
      await listener.waitFor(() => listener.seen.filter((n) => n.taskId === task.id && n.scope === 'board').length >= 12);
    } finally {
      await listener.close();
    }
  });

  it('answers 20 writes of one property on one task and ends on the value of its last line', async () => {
    const prop = await createProperty(owner.client, project.id, 'Score', 'number');
    const task = await createTask(owner.client, project.id, 'Hot');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => owner.client.put(`/tasks/${task.id}/values/${prop.id}`, { value: 100 + i })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const lines = await feedLines(t, task.id, 'value');
    // Every write changed the value (all 20 differ), so each left one line, in the order they landed.
    expect(lines).toHaveLength(20);
    expect((await stored(task.id))[prop.id]).toBe(lines[lines.length - 1].data.value);
  });

  it('names the option a select write chose in its line, without a lookup of its own', async () => {
    const status = await createProperty(owner.client, project.id, 'Stage', 'select', ['Todo', 'Doing']);
    const task = await createTask(owner.client, project.id, 'Named');
    const doing = status.options.find((o) => o.name === 'Doing')!.id;
    const res = await owner.client.put(`/tasks/${task.id}/values/${status.id}`, { value: doing });
    expect(res.status).toBe(200);
    const [line] = await feedLines(t, task.id, 'value');
    expect(line.data).toEqual({ property: 'Stage', value: 'Doing', changes: { [status.id]: [null, doing] } });
  });

  it('writes nothing when an option, property or person it names went away after the read', async () => {
    const store = t.app.get(TaskValueRepository);
    const uow = t.app.get(UnitOfWork);
    const phase = await createProperty(owner.client, project.id, 'Phase', 'select', ['Early', 'Late']);
    const who = await createProperty(owner.client, project.id, 'Who', 'person');
    const task = await createTask(owner.client, project.id, 'Gone option');
    const late = phase.options.find((o) => o.name === 'Late')!.id;
    const write = async (propertyId: string, value: StoredValue, refers: { propertyId: string; optionIds: string[]; memberIds: string[] }) => {
      const { task: loaded } = await store.load(project.id, task.id);
      const expected = loaded!.values;
      loaded!.replaceValues({ ...expected, [propertyId]: value });
      // The line and the notice travel in the write's one statement, landing only with it.
      return uow.writeStatement(() =>
        withEvents(
          store.writeIfUnchanged({ task: loaded!, expected, now: new Date(), refers }),
          feedLine({ projectId: project.id, taskId: task.id, actorId: owner.user.id, kind: 'value', data: { property: 'x', value: 'y' } }),
          notice({ projectId: project.id, scope: 'board', taskId: task.id, clientId: null }),
        ),
      );
    };
    // The read happened before these deletions; the statement checks again.
    await t.sql.query('DELETE FROM options WHERE id = $1', [late]);
    expect(await write(phase.id, late, { propertyId: phase.id, optionIds: [late], memberIds: [] })).toBe(false);
    const stranger = '00000000-0000-4000-8000-000000000001';
    expect(await write(who.id, stranger, { propertyId: who.id, optionIds: [], memberIds: [stranger] })).toBe(false);
    await t.sql.query('DELETE FROM properties WHERE id = $1', [who.id]);
    expect(await write(who.id, owner.user.id, { propertyId: who.id, optionIds: [], memberIds: [owner.user.id] })).toBe(false);
    expect(await stored(task.id)).toEqual({});
    expect(await feedLines(t, task.id, 'value')).toHaveLength(0);
    // And with everything still there, the same write lands.
    const early = phase.options.find((o) => o.name === 'Early')!.id;
    expect(await write(phase.id, early, { propertyId: phase.id, optionIds: [early], memberIds: [] })).toBe(true);
    expect(await stored(task.id)).toEqual({ [phase.id]: early });
    expect(await feedLines(t, task.id, 'value')).toHaveLength(1);
    const lead = await createProperty(owner.client, project.id, 'Lead', 'person');
    expect(await write(lead.id, owner.user.id, { propertyId: lead.id, optionIds: [], memberIds: [owner.user.id] })).toBe(true);
    expect((await stored(task.id))[lead.id]).toBe(owner.user.id);
  });

  it('a statement may carry several lines and notices: all land with the write, none without it', async () => {
    const store = t.app.get(TaskValueRepository);
    const uow = t.app.get(UnitOfWork);
    const prop = await createProperty(owner.client, project.id, 'Weight', 'number');
    const task = await createTask(owner.client, project.id, 'Two lines');
    const write = async (expected: Record<string, StoredValue>) => {
      const { task: loaded } = await store.load(project.id, task.id);
      loaded!.replaceValues({ [prop.id]: 7 });
      const line = (n: number) => feedLine({ projectId: project.id, taskId: task.id, actorId: owner.user.id, kind: 'value', data: { property: 'Weight', value: n } });
      const ring = notice({ projectId: project.id, scope: 'board', taskId: task.id, clientId: null });
      return uow.writeStatement(() =>
        withEvents(store.writeIfUnchanged({ task: loaded!, expected, now: new Date(), refers: { propertyId: prop.id, optionIds: [], memberIds: [] } }), line(1), line(2), ring, ring),
      );
    };
    expect(await write({ [prop.id]: 1 })).toBe(false);
    expect(await feedLines(t, task.id, 'value')).toHaveLength(0);
    expect(await write({})).toBe(true);
    expect((await feedLines(t, task.id, 'value')).map((l) => l.data.value).sort()).toEqual([1, 2]);
  });

  it('writes nothing when the values changed after the read', async () => {
    const store = t.app.get(TaskValueRepository);
    const prop = await createProperty(owner.client, project.id, 'Size', 'number');
    const task = await createTask(owner.client, project.id, 'Moved under us');
    const { task: loaded } = await store.load(project.id, task.id);
    const expected = loaded!.values;
    loaded!.replaceValues({ [prop.id]: 1 });
    await t.sql.query(`UPDATE tasks SET "values" = jsonb_build_object($2::text, 5) WHERE id = $1`, [task.id, prop.id]);
    const input = { task: loaded!, expected, now: new Date(), refers: { propertyId: prop.id, optionIds: [], memberIds: [] } };
    const uow = t.app.get(UnitOfWork);
    expect(await uow.writeStatement(() => silent(store.writeIfUnchanged(input)))).toBe(false);
    expect((await stored(task.id))[prop.id]).toBe(5);
    expect(await uow.writeStatement(() => silent(store.writeIfUnchanged({ ...input, expected: { [prop.id]: 5 } })))).toBe(true);
    expect((await stored(task.id))[prop.id]).toBe(1);
  });
});
