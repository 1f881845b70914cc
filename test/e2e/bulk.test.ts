import { randomUUID } from 'node:crypto';
import { createProperty, createTask, expectStatus } from '../support/fixtures';
import { readTask, taskActivity } from '../support/builders-a';
import type { ProjectAnswer, TaskAnswer } from '../support/answers';
import { aBoard, Agent, aTeam, optionId, Prop, propertyNamed } from '../support/builders';
import { Client, createProject, Person, startTestApp, TestApp } from '../support/test-app';

const TOO_MANY = 'That is more than 200 tasks at once. Name fewer.';
const NOT_ON_BOARD = 'One of those tasks is not on this board.';

describe('bulk routes', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let project: ProjectAnswer;
  let otherProject: ProjectAnswer;
  let status: Prop;
  let tags: Prop;
  let points: Prop;
  let foreignProp: Prop;
  let foreignTask: TaskAnswer;

  const optOf = optionId;

  const newTask = (title: string, values: Record<string, unknown> = {}, projectId: string = project.id, as: Client = owner.client): Promise<TaskAnswer> =>
    createTask(as, projectId, title, values);
  /** What a test reads of a task: its values and when it was archived, from the full read (as one who may read it). */
  const taskRow = async (taskId: string, as: Client = owner.client) => {
    const task = await readTask(as, taskId);
    return { values: task.values, archivedAt: task.archivedAt };
  };
  const feed = (taskId: string, kind: string) => taskActivity(owner.client, taskId, kind);

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, { name: 'Bulk', key: 'BLK', properties: { Tags: ['multi_select', ['Red', 'Green', 'Blue']], Points: ['number'] } });
    ({ owner, member, outsider, project, otherProject, agent, status, foreignStatus: foreignProp } = team);
    ({ Tags: tags, Points: points } = team.props);
    foreignTask = await newTask('Theirs', {}, otherProject.id, outsider.client);
  });
  afterAll(() => t.close());

  describe('POST /api/projects/:projectId/archive', () => {
    const archive = (body: unknown, as: Client = owner.client, projectId: string = project.id) => as.post(`/projects/${projectId}/archive`, body);

    it('refuses an agent with 403 Only a person can do this. and archives nothing', async () => {
      const task = await newTask('Robot-proof');
      const res = await archive({ taskIds: [task.id] }, agent.client);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only a person can do this.' });
      expect((await taskRow(task.id)).archivedAt).toBeNull();
    });

    it('refuses a non-member with 404', async () => {
      const res = await archive({ taskIds: [foreignTask.id] }, owner.client, otherProject.id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found.' });
      expect((await taskRow(foreignTask.id, outsider.client)).archivedAt).toBeNull();
    });

    it('archives named tasks, duplicates once, counting only those that really went', async () => {
      const a = await newTask('A');
      const b = await newTask('B');
      const c = await newTask('C');
      const untouched = await newTask('Untouched');
      await owner.client.post(`/tasks/${c.id}/archive`);
      const cAt = (await taskRow(c.id)).archivedAt;
      const res = await archive({ taskIds: [a.id, b.id, a.id, c.id, b.id.toUpperCase()] }, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ archived: 2 });
      for (const task of [a, b]) {
        expect((await taskRow(task.id)).archivedAt).not.toBeNull();
        expect(await feed(task.id, 'archive')).toEqual([{ kind: 'archive', data: { action: 'archived' }, actorId: member.user.id }]);
      }
      expect((await taskRow(c.id)).archivedAt).toEqual(cAt);
      expect(await feed(c.id, 'archive')).toHaveLength(1);
      expect((await taskRow(untouched.id)).archivedAt).toBeNull();
      const board = (await owner.client.get(`/projects/${project.id}/board`)).body;
      expect(board.tasks.some((x) => [a.id, b.id, c.id].includes(x.id))).toBe(false);
      expect(board.archived.filter((x) => [a.id, b.id, c.id].includes(x.id))).toHaveLength(3);
      // Again: nothing more goes.
      expect((await archive({ taskIds: [a.id, b.id] })).body).toEqual({ archived: 0 });
      expect(await feed(a.id, 'archive')).toHaveLength(1);
    });

    it('takes 250 copies of one id as one task', async () => {
      const task = await newTask('Copied');
      const res = await archive({ taskIds: Array(250).fill(task.id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ archived: 1 });
    });

    it('archives 200 tasks at once', async () => {
      const p = await createProject(owner.client, 'Two hundred', 'TWO');
      const ids = (await aBoard(owner.client, p.id, 200, { title: 'T' })).map((x) => x.id);
      const res = await archive({ taskIds: ids }, owner.client, p.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ archived: 200 });
      const board = (await owner.client.get(`/projects/${p.id}/board`)).body;
      expect(board.tasks).toEqual([]);
      expect(board.archived).toHaveLength(200);
    }, 60_000);

    it('archives a whole column by value', async () => {
      const p = await createProject(owner.client, 'Columns', 'COL');
      const pb = (await owner.client.get(`/projects/${p.id}/board`)).body;
      const st = pb.properties.find((x) => x.name === 'Status')!;
      const done = st.options.find((o) => o.name === 'Done')!.id;
      const todo = st.options.find((o) => o.name === 'To do')!.id;
      const d1 = await newTask('Done 1', { [st.id]: done }, p.id);
      const d2 = await newTask('Done 2', { [st.id]: done }, p.id);
      const open = await newTask('Open', { [st.id]: todo }, p.id);
      const empty = await newTask('Nothing', {}, p.id);
      const ok = await archive({ propertyId: st.id, value: done }, owner.client, p.id);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ archived: 2 });
      expect((await taskRow(d1.id)).archivedAt).not.toBeNull();
      expect((await taskRow(d2.id)).archivedAt).not.toBeNull();
      expect((await taskRow(open.id)).archivedAt).toBeNull();
      expect((await taskRow(empty.id)).archivedAt).toBeNull();
      expect(await feed(d1.id, 'archive')).toEqual([{ kind: 'archive', data: { action: 'archived' }, actorId: owner.user.id }]);
      // The Done column is empty now.
      expect((await archive({ propertyId: st.id, value: done }, owner.client, p.id)).body).toEqual({ archived: 0 });
      // An option id in upper case names the same column.
      const d3 = await newTask('Done 3', { [st.id]: done }, p.id);
      const upper = await archive({ propertyId: st.id.toUpperCase(), value: done.toUpperCase() }, owner.client, p.id);
      expect(upper.status).toBe(200);
      expect(upper.body).toEqual({ archived: 1 });
      expect((await taskRow(d3.id)).archivedAt).not.toBeNull();
    });

    it('archives a column without tripping over a task deleted at the same moment', async () => {
      const p = await createProject(owner.client, 'Column race', 'CRACE');
      const st = await propertyNamed(owner.client, p.id, 'Status');
      const done = optionId(st, 'Done');
      for (let round = 0; round < 15; round++) {
        const tasks = await aBoard(owner.client, p.id, 4, { title: `C${round}-`, values: () => ({ [st.id]: done }) });
        const [archived, ...deletes] = await Promise.all([
          archive({ propertyId: st.id, value: done }, owner.client, p.id),
          ...tasks.slice(0, 2).map((x) => owner.client.delete(`/tasks/${x.id}`)),
        ]);
        for (const d of deletes) expect(d.status).toBe(200);
        expect({ round, status: archived.status, body: archived.body }).toEqual({ round, status: 200, body: { archived: expect.any(Number) } });
        for (const x of tasks.slice(2)) expect((await taskRow(x.id)).archivedAt).not.toBeNull();
      }
    }, 60_000);

    it('archives the column of tasks holding nothing with value null', async () => {
      const p = await createProject(owner.client, 'Empties', 'EMP');
      const pb = (await owner.client.get(`/projects/${p.id}/board`)).body;
      const st = pb.properties.find((x) => x.name === 'Status')!;
      const todo = st.options.find((o) => o.name === 'To do')!.id;
      const held = await newTask('Held', { [st.id]: todo }, p.id);
      const none1 = await newTask('None 1', {}, p.id);
      const none2 = await newTask('None 2', {}, p.id);
      const cleared = await newTask('Cleared', { [st.id]: todo }, p.id);
      await owner.client.put(`/tasks/${cleared.id}/values/${st.id}`, { value: null });
      const res = await archive({ propertyId: st.id, value: null }, owner.client, p.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ archived: 3 });
      for (const x of [none1, none2, cleared]) expect((await taskRow(x.id)).archivedAt).not.toBeNull();
      expect((await taskRow(held.id)).archivedAt).toBeNull();
      // Without value at all it is the same empty column.
      const none3 = await newTask('None 3', {}, p.id);
      const again = await archive({ propertyId: st.id }, owner.client, p.id);
      expect(again.body).toEqual({ archived: 1 });
      expect((await taskRow(none3.id)).archivedAt).not.toBeNull();
      expect((await taskRow(held.id)).archivedAt).toBeNull();
    });

    it('archives a multi-select column: tasks whose list holds the option', async () => {
      const red = optOf(tags, 'Red');
      const both = await newTask('Red and blue', { [tags.id]: [optOf(tags, 'Blue'), red] });
      const onlyRed = await newTask('Red', { [tags.id]: [red] });
      const green = await newTask('Green', { [tags.id]: [optOf(tags, 'Green')] });
      const res = await archive({ propertyId: tags.id, value: red });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ archived: 2 });
      expect((await taskRow(both.id)).archivedAt).not.toBeNull();
      expect((await taskRow(onlyRed.id)).archivedAt).not.toBeNull();
      expect((await taskRow(green.id)).archivedAt).toBeNull();
    });

    it('loses no value written while a bulk archive runs', async () => {
      const p = await createProject(owner.client, 'Race', 'RACE');
      const pts = await createProperty(owner.client, p.id, 'Points', 'number');
      for (let round = 0; round < 10; round++) {
        const tasks = await aBoard(owner.client, p.id, 5, { title: `R${round}-` });
        const [archived, ...writes] = await Promise.all([
          archive({ taskIds: tasks.map((x) => x.id) }, owner.client, p.id),
          ...tasks.map((x, i) => owner.client.put(`/tasks/${x.id}/values/${pts.id}`, { value: i + 1 })),
        ]);
        expect(archived.body).toEqual({ archived: 5 });
        for (const w of writes) expect(w.status).toBe(200);
        for (const [i, x] of tasks.entries()) {
          const stored = await taskRow(x.id);
          expect({ round, i, value: stored.values[pts.id], archived: stored.archivedAt !== null }).toEqual({ round, i, value: i + 1, archived: true });
        }
      }
    }, 60_000);

    it('refuses each bad body with its message and archives nothing', async () => {
      const live = await newTask('Live');
      const deleted = await newTask('Deleted');
      await owner.client.delete(`/tasks/${deleted.id}`);
      const many = Array.from({ length: 201 }, () => randomUUID());
      const cases: [unknown, string][] = [
        [{}, 'Name the tasks, or the property the columns come from.'],
        [{ value: optOf(status, 'Done') }, 'Name the tasks, or the property the columns come from.'],
        [{ taskIds: live.id }, 'Name the tasks as a list of ids.'],
        [{ taskIds: { a: live.id } }, 'Name the tasks as a list of ids.'],
        [{ taskIds: null }, 'Name the tasks as a list of ids.'],
        [{ taskIds: [] }, 'Name at least one task.'],
        [{ taskIds: many }, TOO_MANY],
        [{ taskIds: [live.id, 'nope'] }, 'That is not a task id.'],
        [{ propertyId: 'nope', value: null }, 'That is not a property id.'],
        [{ propertyId: foreignProp.id, value: null }, 'That property is not in this project.'],
        [{ propertyId: randomUUID(), value: null }, 'That property is not in this project.'],
        [{ taskIds: [live.id, foreignTask.id] }, NOT_ON_BOARD],
        [{ taskIds: [live.id, randomUUID()] }, NOT_ON_BOARD],
        [{ taskIds: [live.id, deleted.id] }, NOT_ON_BOARD],
      ];
      for (const [body, error] of cases) {
        const res = await archive(body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect((await taskRow(live.id)).archivedAt).toBeNull();
      expect((await taskRow(foreignTask.id, outsider.client)).archivedAt).toBeNull();
      expect(await feed(live.id, 'archive')).toEqual([]);
    });
  });

  describe('POST /api/projects/:projectId/tasks/values', () => {
    const bulk = (body: unknown, as: Client = owner.client, projectId: string = project.id) => as.post(`/projects/${projectId}/tasks/values`, body);

    it('sets one value on many tasks, counting only those that changed, one line per changed task', async () => {
      const done = optOf(status, 'Done');
      const a = await newTask('A');
      const b = await newTask('B', { [status.id]: optOf(status, 'To do') });
      const c = await newTask('C', { [status.id]: done });
      const res = await bulk({ taskIds: [a.id, b.id, c.id, a.id], propertyId: status.id, value: done }, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ set: 2, value: done, dropped: [] });
      for (const x of [a, b, c]) expect((await taskRow(x.id)).values).toEqual({ [status.id]: done });
      for (const x of [a, b]) {
        expect(await feed(x.id, 'value')).toEqual([{ kind: 'value', data: { property: 'Status', value: 'Done', changes: { [status.id]: [x === a ? null : optOf(status, 'To do'), done] } }, actorId: member.user.id }]);
      }
      expect(await feed(c.id, 'value')).toEqual([]);
      // Same again: nothing changes, nothing written.
      const again = await bulk({ taskIds: [a.id, b.id, c.id], propertyId: status.id, value: done });
      expect(again.body).toEqual({ set: 0, value: done, dropped: [] });
      expect(await feed(a.id, 'value')).toHaveLength(1);
    });

    it('normalises the value once for all and clears with null', async () => {
      const a = await newTask('N1', { [points.id]: 1 });
      const b = await newTask('N2');
      const res = await bulk({ taskIds: [a.id, b.id], propertyId: points.id, value: '42' });
      expect(res.body).toEqual({ set: 2, value: 42, dropped: [] });
      expect((await taskRow(a.id)).values).toEqual({ [points.id]: 42 });
      const cleared = await bulk({ taskIds: [a.id, b.id], propertyId: points.id, value: null });
      expect(cleared.body).toEqual({ set: 2, value: null, dropped: [] });
      expect((await taskRow(a.id)).values).toEqual({});
      expect((await feed(a.id, 'value')).map((l) => l.data)).toEqual([
        { property: 'Points', value: 42 },
        { property: 'Points', value: null },
      ]);
      const bad = await bulk({ taskIds: [a.id], propertyId: points.id, value: 'abc' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'Points needs a number.' });
      const clearList = await bulk({ taskIds: [a.id], propertyId: tags.id, value: [] });
      expect(clearList.body).toEqual({ set: 0, value: [], dropped: [] });
    });

    it('replaces a whole multi-select list with a plain value', async () => {
      const a = await newTask('M1', { [tags.id]: [optOf(tags, 'Red'), optOf(tags, 'Green')] });
      const b = await newTask('M2', { [tags.id]: [optOf(tags, 'Blue')] });
      const res = await bulk({ taskIds: [a.id, b.id], propertyId: tags.id, value: [optOf(tags, 'Blue'), optOf(tags, 'Blue')] });
      // b held exactly [Blue] already, so only a changed.
      expect(res.body).toEqual({ set: 1, value: [optOf(tags, 'Blue')], dropped: [] });
      expect((await taskRow(a.id)).values).toEqual({ [tags.id]: [optOf(tags, 'Blue')] });
      expect((await taskRow(b.id)).values).toEqual({ [tags.id]: [optOf(tags, 'Blue')] });
      expect(await feed(a.id, 'value')).toHaveLength(1);
      expect(await feed(b.id, 'value')).toEqual([]);
    });

    it('adds one option with change: add, counting only tasks that lacked it', async () => {
      const red = optOf(tags, 'Red');
      const green = optOf(tags, 'Green');
      const a = await newTask('Add 1', { [tags.id]: [green] });
      const b = await newTask('Add 2', { [tags.id]: [red] });
      const c = await newTask('Add 3');
      const res = await bulk({ taskIds: [a.id, b.id, c.id], propertyId: tags.id, value: red, change: 'add' }, agent.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ set: 2, value: red, dropped: [] });
      expect((await taskRow(a.id)).values).toEqual({ [tags.id]: [green, red] });
      expect((await taskRow(b.id)).values).toEqual({ [tags.id]: [red] });
      expect((await taskRow(c.id)).values).toEqual({ [tags.id]: [red] });
      expect(await feed(a.id, 'value')).toEqual([{ kind: 'value', data: { property: 'Tags', value: ['Green', 'Red'] }, actorId: agent.agent.id }]);
      expect(await feed(b.id, 'value')).toEqual([]);
      expect(await feed(c.id, 'value')).toHaveLength(1);
    });

    it('takes one option off with change: remove', async () => {
      const red = optOf(tags, 'Red');
      const green = optOf(tags, 'Green');
      const a = await newTask('Rm 1', { [tags.id]: [green, red] });
      const b = await newTask('Rm 2', { [tags.id]: [red] });
      const c = await newTask('Rm 3', { [tags.id]: [green] });
      const res = await bulk({ taskIds: [a.id, b.id, c.id], propertyId: tags.id, value: red.toUpperCase(), change: 'remove' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ set: 2, value: red, dropped: [] });
      expect((await taskRow(a.id)).values).toEqual({ [tags.id]: [green] });
      expect((await taskRow(b.id)).values).toEqual({});
      expect((await taskRow(c.id)).values).toEqual({ [tags.id]: [green] });
      expect((await feed(b.id, 'value')).map((l) => l.data)).toEqual([{ property: 'Tags', value: [] }]);
      expect(await feed(c.id, 'value')).toEqual([]);
    });

    it('checks the one option of a change', async () => {
      const a = await newTask('Check');
      const list = await bulk({ taskIds: [a.id], propertyId: tags.id, value: [optOf(tags, 'Red')], change: 'add' });
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ error: 'Tags needs one option.' });
      const none = await bulk({ taskIds: [a.id], propertyId: tags.id, value: null, change: 'remove' });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'Tags needs one option.' });
      const gone = await bulk({ taskIds: [a.id], propertyId: tags.id, value: randomUUID(), change: 'add' });
      expect(gone.status).toBe(400);
      expect(gone.body).toEqual({ error: 'One of the options does not exist any more.' });
      expect((await taskRow(a.id)).values).toEqual({});
    });

    it('answers what when rules dropped, per task', async () => {
      const p = await createProject(owner.client, 'Bulk rules', 'BRU');
      const stage = await createProperty(owner.client, p.id, 'Stage', 'select', ['Open', 'Closed']);
      const reason = await createProperty(owner.client, p.id, 'Reason', 'text');
      const rule = { propertyId: stage.id, optionIds: [optOf(stage, 'Closed')] };
      await expectStatus(owner.client.patch(`/properties/${reason.id}`, { when: rule }), 200);
      const a = await newTask('Closed A', { [stage.id]: optOf(stage, 'Closed'), [reason.id]: 'Dup' }, p.id);
      const b = await newTask('Closed B', { [stage.id]: optOf(stage, 'Closed') }, p.id);
      const res = await bulk({ taskIds: [a.id, b.id], propertyId: stage.id, value: optOf(stage, 'Open') }, owner.client, p.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ set: 2, value: optOf(stage, 'Open'), dropped: [{ taskId: a.id, propertyId: reason.id, name: 'Reason' }] });
      expect((await taskRow(a.id)).values).toEqual({ [stage.id]: optOf(stage, 'Open') });
      expect((await feed(a.id, 'value')).map((l) => l.data)).toEqual([
        { property: 'Stage', value: 'Open', changes: { [stage.id]: [optOf(stage, 'Closed'), optOf(stage, 'Open')] }, dropped: ['Reason'], propertyIds: [reason.id], hidBy: optOf(stage, 'Open') },
      ]);
      expect((await feed(b.id, 'value')).map((l) => l.data)).toEqual([{ property: 'Stage', value: 'Open', changes: { [stage.id]: [optOf(stage, 'Closed'), optOf(stage, 'Open')] } }]);
    });

    it('refuses each bad body with its message and writes nothing', async () => {
      const live = await newTask('Live', { [points.id]: 1 });
      const archived = await newTask('Archived');
      await owner.client.post(`/tasks/${archived.id}/archive`);
      const deleted = await newTask('Deleted');
      await owner.client.delete(`/tasks/${deleted.id}`);
      const many = Array.from({ length: 201 }, () => randomUUID());
      const base = { propertyId: points.id, value: 5 };
      const cases: [unknown, string][] = [
        [{}, 'Name the tasks as a list of ids.'],
        [{ ...base, taskIds: live.id }, 'Name the tasks as a list of ids.'],
        [{ ...base, taskIds: null }, 'Name the tasks as a list of ids.'],
        [{ ...base, taskIds: [] }, 'Name at least one task.'],
        [{ ...base, taskIds: many }, TOO_MANY],
        [{ ...base, taskIds: ['nope'] }, 'That is not a task id.'],
        [{ taskIds: [live.id], value: 5 }, 'Name the property to set.'],
        [{ taskIds: [live.id], propertyId: null, value: 5 }, 'Name the property to set.'],
        [{ taskIds: [live.id], propertyId: 'nope', value: 5 }, 'That is not a property id.'],
        [{ taskIds: [live.id], propertyId: foreignProp.id, value: foreignProp.options[0].id }, 'That property is not in this project.'],
        [{ taskIds: [live.id], propertyId: randomUUID(), value: 5 }, 'That property is not in this project.'],
        [{ ...base, taskIds: [live.id, foreignTask.id] }, NOT_ON_BOARD],
        [{ ...base, taskIds: [live.id, randomUUID()] }, NOT_ON_BOARD],
        [{ ...base, taskIds: [live.id, deleted.id] }, NOT_ON_BOARD],
        [{ ...base, taskIds: [live.id, archived.id] }, 'One of those tasks is archived. Put it back first.'],
        [{ taskIds: [live.id], propertyId: status.id, value: optOf(status, 'Done'), change: 'add' }, 'Only a multi-select adds or takes off one option.'],
        [{ taskIds: [live.id], propertyId: points.id, value: 5, change: 'remove' }, 'Only a multi-select adds or takes off one option.'],
        [{ taskIds: [live.id], propertyId: tags.id, value: optOf(tags, 'Red'), change: 'toggle' }, 'A change is "add" or "remove".'],
        [{ taskIds: [live.id], propertyId: tags.id, value: optOf(tags, 'Red'), change: true }, 'A change is "add" or "remove".'],
        [{ ...base, taskIds: [live.id], value: 'many' }, 'Points needs a number.'],
      ];
      for (const [body, error] of cases) {
        const res = await bulk(body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect((await taskRow(live.id)).values).toEqual({ [points.id]: 1 });
      expect(await feed(live.id, 'value')).toEqual([]);
      expect((await taskRow(archived.id)).values).toEqual({});
    });

    it('takes 250 copies of one id as one task', async () => {
      const a = await newTask('Copies');
      const res = await bulk({ taskIds: Array(250).fill(a.id), propertyId: points.id, value: 3 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ set: 1, value: 3, dropped: [] });
      expect(await feed(a.id, 'value')).toHaveLength(1);
    });

    it('refuses a non-member with 404 and a bad project id with 400', async () => {
      const res = await bulk({ taskIds: [foreignTask.id], propertyId: foreignProp.id, value: null }, owner.client, otherProject.id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found.' });
      const bad = await bulk({ taskIds: [foreignTask.id], propertyId: foreignProp.id, value: null }, owner.client, 'nope');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'That is not a project id.' });
    });
  });
});
