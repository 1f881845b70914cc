import { randomUUID } from 'node:crypto';
import { createProperty, createTaskFromBody, expectError, expectStatus } from '../support/fixtures';
import { feedOfTask, liveTasks } from '../support/builders-b';
import type { ProjectAnswer, TaskAnswer } from '../support/answers';
import { Agent, aTeam, optionId, Prop } from '../support/builders';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const TASK_NOT_FOUND = { error: 'Task not found.' };
const CLASH = 'This changed while you typed.';
const DAY_MS = 24 * 60 * 60 * 1000;

const BOARD_FIELDS = [
  'id', 'number', 'key', 'title', 'description', 'position', 'createdAt', 'updatedAt', 'archivedAt', 'values',
  'checklistTotal', 'checklistDone', 'commentCount', 'blockedBy', 'parts',
];
const sorted = (keys: string[]) => [...keys].sort();

describe('tasks', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let project: ProjectAnswer;
  let status: Prop;
  let otherProject: ProjectAnswer;

  const opt = (name: string) => optionId(status, name);

  const newTask = (body: Record<string, unknown>, as: Client = owner.client, projectId: string = project.id): Promise<TaskAnswer> =>
    createTaskFromBody(as, projectId, body);
  const board = async (projectId: string = project.id, as: Client = owner.client) => {
    const res = await as.get(`/projects/${projectId}/board`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const read = async (taskId: string, as: Client = owner.client) => {
    const res = await as.get(`/tasks/${taskId}`);
    expect(res.status).toBe(200);
    return res.body.task;
  };
  // The project's feed, not the task read: it keeps the lines of deleted tasks.
  const feed = (taskId: string) => feedOfTask(owner.client, project.id, taskId);

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider, project, otherProject, agent, status } = await aTeam(t, { name: 'Tasks', key: 'TSK' }));
  });
  afterAll(() => t.close());

  describe('POST /api/projects/:projectId/tasks', () => {
    it('answers 201 { task } in the create shape and writes a created line', async () => {
      const before = Date.now();
      const res = await member.client.post(`/projects/${project.id}/tasks`, { title: '  Write the spec  ', description: 'All of it' });
      expect(res.status).toBe(201);
      const task = res.body.task;
      expect(sorted(Object.keys(res.body))).toEqual(['task']);
      expect(sorted(Object.keys(task))).toEqual(sorted([...BOARD_FIELDS, 'projectId', 'createdBy']));
      expect(task).toMatchObject({
        title: 'Write the spec',
        description: 'All of it',
        archivedAt: null,
        values: {},
        checklistTotal: 0,
        checklistDone: 0,
        commentCount: 0,
        blockedBy: [],
        parts: null,
        projectId: project.id,
        createdBy: member.user.id,
      });
      expect(task.key).toBe(`TSK-${task.number}`);
      expect(typeof task.position).toBe('string');
      expect(new Date(task.createdAt).getTime()).toBeGreaterThanOrEqual(before - 5000);
      expect(task.updatedAt).toBe(task.createdAt);
      const lines = await feed(task.id);
      expect(lines).toEqual([{ kind: 'created', data: { selects: {} }, actorId: member.user.id }]);
      expect((await read(task.id)).title).toBe('Write the spec');
      // Storage itself: created_by is kept, but no read shows it.
      expect((await t.sql.query(`SELECT created_by FROM tasks WHERE id = $1`, [task.id])).rows[0].created_by).toBe(member.user.id);
    });

    it('defaults the description to empty', async () => {
      const task = await newTask({ title: 'No words' });
      expect(task.description).toBe('');
    });

    it('lets an agent create a task as itself', async () => {
      const res = await agent.client.post(`/projects/${project.id}/tasks`, { title: 'By a robot' });
      expect(res.status).toBe(201);
      expect(res.body.task.createdBy).toBe(agent.agent.id);
      expect(res.body.task.projectId).toBe(project.id);
      expect(await feed(res.body.task.id)).toEqual([{ kind: 'created', data: { selects: {} }, actorId: agent.agent.id }]);
    });

    it('numbers tasks 1, 2, 3 per project and never hands a number out twice', async () => {
      const p = await createProject(owner.client, 'Numbers', 'NUM');
      const a = await newTask({ title: 'one' }, owner.client, p.id);
      const b = await newTask({ title: 'two' }, owner.client, p.id);
      const c = await newTask({ title: 'three' }, owner.client, p.id);
      expect([a.number, b.number, c.number]).toEqual([1, 2, 3]);
      expect([a.key, b.key, c.key]).toEqual(['NUM-1', 'NUM-2', 'NUM-3']);
      expect((await owner.client.delete(`/tasks/${c.id}`)).status).toBe(200);
      const d = await newTask({ title: 'four' }, owner.client, p.id);
      expect(d.number).toBe(4);
      expect(d.key).toBe('NUM-4');
      // Even when the rows are gone for good (the purge after 30 days, which no call can bring forward).
      await t.sql.query(`DELETE FROM tasks WHERE project_id = $1`, [p.id]);
      const e = await newTask({ title: 'five' }, owner.client, p.id);
      expect(e.number).toBe(5);
      expect(e.key).toBe('NUM-5');
      // Another project counts on its own.
      const q = await createProject(owner.client, 'Numbers too', 'NUMB');
      expect((await newTask({ title: 'first' }, owner.client, q.id)).key).toBe('NUMB-1');
    });

    it('hands out distinct numbers and places when many tasks are created at once', async () => {
      const p = await createProject(owner.client, 'Rush', 'RUSH');
      await addMember(owner.client, p.id, member);
      const a = await createAgent(owner.client, p.id, 'Rusher');
      const clients = [owner.client, member.client, a.client];
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => clients[i % 3].post(`/projects/${p.id}/tasks`, { title: `R${i}` })));
      for (const res of answers) expect(res.status).toBe(201);
      const numbers = answers.map((r) => r.body.task.number).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      const positions = (await board(p.id)).tasks.map((x) => x.position as string);
      expect(positions).toHaveLength(15);
      for (let i = 1; i < positions.length; i++) expect(positions[i - 1] < positions[i]).toBe(true);
    });

    it('refuses a missing, empty, non-text or too long title', async () => {
      const cases: [unknown, string][] = [
        [undefined, 'Title cannot be empty.'],
        [null, 'Title cannot be empty.'],
        ['', 'Title cannot be empty.'],
        ['    ', 'Title cannot be empty.'],
        [42, 'Title must be text.'],
        [['x'], 'Title must be text.'],
        ['x'.repeat(401), 'Title is too long (max 400 characters).'],
      ];
      const count = async () => (await liveTasks(owner.client, project.id)).length;
      const before = await count();
      for (const [title, error] of cases) {
        const res = await owner.client.post(`/projects/${project.id}/tasks`, title === undefined ? { description: 'x' } : { title });
        expect({ title, status: res.status, body: res.body }).toEqual({ title, status: 400, body: { error } });
      }
      expect(await count()).toBe(before);
    });

    it('takes a title of 400 characters after trimming', async () => {
      const task = await newTask({ title: '  ' + 'x'.repeat(400) + '  ' });
      expect(task.title).toBe('x'.repeat(400));
    });

    it('limits the description to 20000 characters', async () => {
      const res = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'Long', description: 'd'.repeat(20001) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Description is too long (max 20000 characters).' });
      const ok = await newTask({ title: 'Long', description: 'd'.repeat(20000) });
      expect(ok.description).toHaveLength(20000);
      const notText = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'Long', description: 5 });
      expect(notText.status).toBe(400);
      expect(notText.body).toEqual({ error: 'Description must be text.' });
    });

    it('refuses a non-member with 404 Project not found.', async () => {
      const res = await outsider.client.post(`/projects/${project.id}/tasks`, { title: 'Sneak' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found.' });
    });

    describe('placement', () => {
      let p: ProjectAnswer;
      beforeAll(async () => {
        p = await createProject(owner.client, 'Placement', 'PLC');
      });
      const order = async () => (await board(p.id)).tasks.map((x) => x.title);
      const positions = async () => (await board(p.id)).tasks.map((x) => x.position as string);

      it('puts a task at the end by default, first with atTop, straight after afterId', async () => {
        const a = await newTask({ title: 'A' }, owner.client, p.id);
        const b = await newTask({ title: 'B' }, owner.client, p.id);
        const c = await newTask({ title: 'C' }, owner.client, p.id);
        expect(a.position < b.position && b.position < c.position).toBe(true);
        const top = await newTask({ title: 'Top', atTop: true }, owner.client, p.id);
        expect(top.position < a.position).toBe(true);
        const afterA = await newTask({ title: 'AfterA', afterId: a.id }, owner.client, p.id);
        expect(a.position < afterA.position && afterA.position < b.position).toBe(true);
        // afterId wins over atTop.
        const afterC = await newTask({ title: 'AfterC', afterId: c.id, atTop: true }, owner.client, p.id);
        expect(c.position < afterC.position).toBe(true);
        const end = await newTask({ title: 'End', atTop: false }, owner.client, p.id);
        expect(afterC.position < end.position).toBe(true);
        expect(await order()).toEqual(['Top', 'A', 'AfterA', 'B', 'C', 'AfterC', 'End']);
        const pos = await positions();
        for (let i = 1; i < pos.length; i++) expect(pos[i - 1] < pos[i]).toBe(true);
      });

      it('keeps placing straight after the same task in order', async () => {
        const q = await createProject(owner.client, 'After', 'AFT');
        const a = await newTask({ title: 'A' }, owner.client, q.id);
        const z = await newTask({ title: 'Z' }, owner.client, q.id);
        let last = a;
        for (let i = 0; i < 8; i++) {
          const n = await newTask({ title: `N${i}`, afterId: a.id }, owner.client, q.id);
          expect(a.position < n.position).toBe(true);
          if (last !== a) expect(n.position < last.position).toBe(true);
          expect(n.position < z.position).toBe(true);
          last = n;
        }
        expect((await board(q.id)).tasks.map((x) => x.title)).toEqual(['A', 'N7', 'N6', 'N5', 'N4', 'N3', 'N2', 'N1', 'N0', 'Z']);
      });

      it('refuses an afterId that is not a UUID', async () => {
        const res = await owner.client.post(`/projects/${p.id}/tasks`, { title: 'x', afterId: 'nope' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'That is not a task id.' });
      });
    });

    it('refuses values that are not an object keyed by property ids', async () => {
      const bad = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'x', values: { 'not-an-id': 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'That is not a property id.' });
      const foreign = (await board(otherProject.id, outsider.client)).properties[0].id;
      const other = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'x', values: { [foreign]: null } });
      expect(other.status).toBe(400);
      expect(other.body).toEqual({ error: 'That property is not in this project.' });
    });
  });

  describe('GET /api/tasks/:taskId', () => {
    it('reads a task in full: links both ways with over, parent, children in board order, checklist, comments, activity', async () => {
      const main = await newTask({ title: 'Main', description: 'The middle' });
      const blocker = await newTask({ title: 'Blocker', values: { [status.id]: opt('Done') } });
      const openBlocker = await newTask({ title: 'Open blocker' });
      const waiter = await newTask({ title: 'Waiter' });
      const parent = await newTask({ title: 'Parent' });
      const kid1 = await newTask({ title: 'Kid 1' });
      const kid2 = await newTask({ title: 'Kid 2' });
      for (const [task, blockerId] of [[main, blocker.id], [main, openBlocker.id], [waiter, main.id]] as const) {
        const res = await owner.client.post(`/tasks/${task.id}/blockers`, { blockerId });
        expect(res.status).toBe(200);
      }
      expect((await owner.client.put(`/tasks/${main.id}/parent`, { parentId: parent.id })).status).toBe(200);
      expect((await owner.client.put(`/tasks/${kid1.id}/parent`, { parentId: main.id })).status).toBe(409);
      // Kid 1 and Kid 2 belong to Parent instead; kid 2 moved above kid 1.
      expect((await owner.client.put(`/tasks/${kid1.id}/parent`, { parentId: parent.id })).status).toBe(200);
      expect((await owner.client.put(`/tasks/${kid2.id}/parent`, { parentId: parent.id })).status).toBe(200);
      expect((await owner.client.post(`/tasks/${kid2.id}/move`, { beforeId: kid1.id })).status).toBe(200);

      const item = await owner.client.post(`/tasks/${main.id}/checklist`, { text: 'Step one' });
      expect(item.status).toBe(201);
      await owner.client.post(`/tasks/${main.id}/checklist`, { text: 'Step two' });
      const c1 = await member.client.post(`/tasks/${main.id}/comments`, { body: 'First!' });
      expect(c1.status).toBeLessThan(300);
      const c2 = await agent.client.post(`/tasks/${main.id}/comments`, { body: 'Second' });
      expect(c2.status).toBeLessThan(300);

      const task = await read(main.id, member.client);
      expect(sorted(Object.keys(task))).toEqual(
        sorted([...BOARD_FIELDS, 'links', 'parent', 'children', 'checklist', 'comments', 'activity', 'run', 'pastRuns']),
      );
      expect(task).toMatchObject({ id: main.id, key: main.key, title: 'Main', description: 'The middle', archivedAt: null });
      expect(task.blockedBy).toEqual([openBlocker.key]);
      expect(task.checklistTotal).toBe(2);
      expect(task.commentCount).toBe(2);
      expect(task.links).toEqual({
        blockedBy: expect.arrayContaining([
          { id: blocker.id, key: blocker.key, title: 'Blocker', over: true },
          { id: openBlocker.id, key: openBlocker.key, title: 'Open blocker', over: false },
        ]),
        blocks: [{ id: waiter.id, key: waiter.key, title: 'Waiter', over: false }],
      });
      expect(task.links.blockedBy).toHaveLength(2);
      expect(task.parent).toEqual({ id: parent.id, key: parent.key, title: 'Parent', over: false });
      expect(task.children).toEqual([]);
      expect(task.checklist).toEqual([
        { id: item.body.item.id, text: 'Step one', done: false, position: item.body.item.position },
        expect.objectContaining({ text: 'Step two', done: false }),
      ]);
      expect(task.comments.map((c) => c.body)).toEqual(['First!', 'Second']);
      expect(task.comments[0]).toEqual({
        id: c1.body.comment.id,
        taskId: main.id,
        authorId: member.user.id,
        body: 'First!',
        createdAt: expect.any(String),
        editedAt: null,
        author: { id: member.user.id, name: 'Milo', color: member.user.color, emoji: member.user.emoji },
      });
      expect(task.comments[1].author).toMatchObject({ id: agent.agent.id, name: 'Robo' });
      expect(task.run).toBeNull();
      expect(task.pastRuns).toEqual([]);
      // Newest first; every entry in the entry shape.
      const kinds = task.activity.map((a) => a.kind);
      expect(kinds[kinds.length - 1]).toBe('created');
      expect(kinds[0]).toBe('comment');
      for (const entry of task.activity) {
        expect(sorted(Object.keys(entry))).toEqual(['actor', 'createdAt', 'data', 'id', 'kind']);
      }
      expect(task.activity[0].actor).toEqual({ id: agent.agent.id, name: 'Robo', color: agent.agent.color, emoji: agent.agent.emoji ?? null });
      const times = task.activity.map((a) => new Date(a.createdAt).getTime());
      for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i]);

      const p = await read(parent.id);
      // Children in board order: Main was created before Kid 1, Kid 2 moved above Kid 1.
      expect(p.children).toEqual([
        { id: main.id, key: main.key, title: 'Main', over: false },
        { id: kid2.id, key: kid2.key, title: 'Kid 2', over: false },
        { id: kid1.id, key: kid1.key, title: 'Kid 1', over: false },
      ]);
      expect(p.parts).toEqual({ done: 0, total: 3 });
      const w = await read(waiter.id);
      expect(w.links).toEqual({ blockedBy: [{ id: main.id, key: main.key, title: 'Main', over: false }], blocks: [] });
      expect(w.blockedBy).toEqual([main.key]);
      // An archived part counts as done; a deleted one is not counted and not listed.
      await owner.client.post(`/tasks/${kid1.id}/archive`);
      await owner.client.delete(`/tasks/${kid2.id}`);
      const p2 = await read(parent.id);
      expect(p2.parts).toEqual({ done: 1, total: 2 });
      expect(p2.children.map((c) => c.id)).toEqual([main.id, kid1.id]);
      await owner.client.put(`/tasks/${main.id}/values/${status.id}`, { value: opt('Done') });
      expect((await read(parent.id)).parts).toEqual({ done: 2, total: 2 });
      expect((await read(parent.id)).children[0].over).toBe(true);
      expect((await read(waiter.id)).blockedBy).toEqual([]);
      expect((await read(waiter.id)).links.blockedBy[0].over).toBe(true);
    });

    it('keeps at most 60 activity entries, newest first, leaving out project lines', async () => {
      const points = await createProperty(owner.client, project.id, 'Points', 'number');
      const task = await newTask({ title: 'Busy' });
      // No call writes reset or rules lines on a task, so they are written into the feed here.
      await t.sql.query(`INSERT INTO activity (id, project_id, task_id, actor_id, kind, data) VALUES ($1, $2, $3, $4, 'reset', '{}'), ($5, $2, $3, $4, 'rules', '{}')`, [
        randomUUID(), project.id, task.id, owner.user.id, randomUUID(),
      ]);
      for (let i = 1; i <= 70; i++) {
        const res = await owner.client.put(`/tasks/${task.id}/values/${points.id}`, { value: i });
        expect(res.status).toBe(200);
      }
      expect((await feed(task.id)).filter((l) => l.kind === 'value')).toHaveLength(70);
      const full = await read(task.id);
      expect(full.activity).toHaveLength(60);
      expect(full.activity.every((a) => a.kind === 'value')).toBe(true);
      expect(full.activity[0].data).toEqual({ property: 'Points', value: 70 });
      expect(full.activity[59].data).toEqual({ property: 'Points', value: 11 });
      expect(full.activity.map((a) => a.data.value)).toEqual(Array.from({ length: 60 }, (_, i) => 70 - i));
    });

    it('leaves out reset and rules lines on a short history', async () => {
      const task = await newTask({ title: 'Quiet' });
      // No call writes reset or rules lines on a task, so they are written into the feed here.
      await t.sql.query(`INSERT INTO activity (id, project_id, task_id, actor_id, kind, data) VALUES ($1, $2, $3, $4, 'reset', '{}'), ($5, $2, $3, $4, 'rules', '{}')`, [
        randomUUID(), project.id, task.id, owner.user.id, randomUUID(),
      ]);
      const full = await read(task.id);
      expect(full.activity.map((a) => a.kind)).toEqual(['created']);
      expect(full.activity[0].actor).toEqual({ id: owner.user.id, name: 'Olive', color: owner.user.color, emoji: owner.user.emoji });
      expect(full.activity[0].data).toEqual({ selects: {} });
    });

    it('reads an archived task', async () => {
      const task = await newTask({ title: 'Gone quiet' });
      expect((await owner.client.post(`/tasks/${task.id}/archive`)).status).toBe(200);
      const full = await read(task.id);
      expect(full.id).toBe(task.id);
      expect(full.archivedAt).toEqual(expect.any(String));
      expect(full.key).toBe(task.key);
      expect(full.run).toBeNull();
    });

    it('answers 404 Task not found. for an unknown, deleted or other-project task', async () => {
      const gone = await newTask({ title: 'Deleted' });
      await owner.client.delete(`/tasks/${gone.id}`);
      const foreign = await newTask({ title: 'Theirs' }, outsider.client, otherProject.id);
      for (const id of [randomUUID(), gone.id, foreign.id]) {
        const res = await owner.client.get(`/tasks/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(TASK_NOT_FOUND);
      }
      // An outsider cannot read one of ours either.
      const ours = await newTask({ title: 'Ours' });
      const res = await outsider.client.get(`/tasks/${ours.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(TASK_NOT_FOUND);
    });

    it('reads a task named by its id in upper case', async () => {
      const task = await newTask({ title: 'Loud' });
      const res = await owner.client.get(`/tasks/${task.id.toUpperCase()}`);
      expect(res.status).toBe(200);
      expect(res.body.task.id).toBe(task.id);
    });

    it('refuses a task id that is not a UUID', async () => {
      const res = await owner.client.get('/tasks/not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'That is not a task id.' });
    });

    it('lets an agent read a task of its project', async () => {
      const task = await newTask({ title: 'Shared' });
      const res = await agent.client.get(`/tasks/${task.id}`);
      expect(res.status).toBe(200);
      expect(res.body.task.id).toBe(task.id);
    });
  });

  describe('PATCH /api/tasks/:taskId', () => {
    const lines = async (taskId: string) => (await feed(taskId)).filter((l) => l.kind !== 'created');

    it('changes title and description, writes one line each, answers { ok: true }', async () => {
      const task = await newTask({ title: 'Old', description: 'Old words' });
      const res = await member.client.patch(`/tasks/${task.id}`, { title: '  New  ', description: 'New words' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const stored = await read(task.id);
      expect(stored.title).toBe('New');
      expect(stored.description).toBe('New words');
      expect(new Date(stored.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(task.updatedAt).getTime());
      expect(await lines(task.id)).toEqual([
        { kind: 'title', data: {}, actorId: member.user.id },
        { kind: 'description', data: {}, actorId: member.user.id },
      ]);
    });

    it('clears the description with ""', async () => {
      const task = await newTask({ title: 'T', description: 'Something' });
      const res = await owner.client.patch(`/tasks/${task.id}`, { description: '' });
      expect(res.status).toBe(200);
      expect((await read(task.id)).description).toBe('');
      expect((await lines(task.id)).map((l) => l.kind)).toEqual(['description']);
    });

    it('writes only the field that changed', async () => {
      const task = await newTask({ title: 'Same', description: 'Before' });
      await owner.client.patch(`/tasks/${task.id}`, { title: 'Same', description: 'After' });
      expect((await lines(task.id)).map((l) => l.kind)).toEqual(['description']);
    });

    it('writes no feed line and keeps updatedAt for a PATCH that changes nothing', async () => {
      const task = await newTask({ title: 'Still', description: 'Same' });
      const before = (await read(task.id)).updatedAt;
      for (const body of [{ title: 'Still' }, { title: '  Still ' }, { description: 'Same' }, { title: 'Still', description: 'Same' }, {}]) {
        const res = await owner.client.patch(`/tasks/${task.id}`, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
      }
      expect(await lines(task.id)).toEqual([]);
      expect((await read(task.id)).updatedAt).toEqual(before);
    });

    it('refuses bad titles and descriptions', async () => {
      const task = await newTask({ title: 'Fine' });
      const cases: [Record<string, unknown>, string][] = [
        [{ title: '' }, 'Title cannot be empty.'],
        [{ title: '  ' }, 'Title cannot be empty.'],
        [{ title: null }, 'Title cannot be empty.'],
        [{ title: 7 }, 'Title must be text.'],
        [{ title: 'x'.repeat(401) }, 'Title is too long (max 400 characters).'],
        [{ description: 'x'.repeat(20001) }, 'Description is too long (max 20000 characters).'],
        [{ description: false }, 'Description must be text.'],
      ];
      for (const [body, error] of cases) {
        const res = await owner.client.patch(`/tasks/${task.id}`, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect((await read(task.id)).title).toBe('Fine');
    });

    it('answers a clash on the title with 409, the field and the saved words, and writes nothing', async () => {
      const task = await newTask({ title: 'Theirs now', description: 'D' });
      const res = await owner.client.patch(`/tasks/${task.id}`, { title: 'Mine', baseTitle: 'What I saw' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: CLASH, field: 'title', current: 'Theirs now' });
      expect((await read(task.id)).title).toBe('Theirs now');
      expect(await lines(task.id)).toEqual([]);
    });

    it('answers a clash on the description, and writes the other field neither', async () => {
      const task = await newTask({ title: 'T0', description: 'Saved words' });
      const res = await owner.client.patch(`/tasks/${task.id}`, {
        title: 'T1',
        baseTitle: 'T0',
        description: 'My words',
        baseDescription: 'Older words',
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: CLASH, field: 'description', current: 'Saved words' });
      const stored = await read(task.id);
      expect(stored.title).toBe('T0');
      expect(stored.description).toBe('Saved words');
      expect(await lines(task.id)).toEqual([]);
      // The same the other way round: a title clash keeps a fine description out too.
      const res2 = await owner.client.patch(`/tasks/${task.id}`, { title: 'T1', baseTitle: 'nope', description: 'My words', baseDescription: 'Saved words' });
      expect(res2.status).toBe(409);
      expect(res2.body).toEqual({ error: CLASH, field: 'title', current: 'T0' });
      expect((await read(task.id)).description).toBe('Saved words');
    });

    it('writes when the base still matches', async () => {
      const task = await newTask({ title: 'Base', description: 'Base words' });
      const res = await owner.client.patch(`/tasks/${task.id}`, { title: 'Next', baseTitle: 'Base', description: 'Next words', baseDescription: 'Base words' });
      expect(res.status).toBe(200);
      const stored = await read(task.id);
      expect([stored.title, stored.description]).toEqual(['Next', 'Next words']);
      expect((await lines(task.id)).map((l) => l.kind)).toEqual(['title', 'description']);
    });

    it('takes words that already match as no clash, and writes nothing for them', async () => {
      const task = await newTask({ title: 'Agreed', description: 'Agreed words' });
      const res = await owner.client.patch(`/tasks/${task.id}`, { title: 'Agreed', baseTitle: 'Stale', description: 'Agreed words', baseDescription: 'Stale' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await lines(task.id)).toEqual([]);
    });

    it('lets the last write win without a base', async () => {
      const task = await newTask({ title: 'First' });
      await member.client.patch(`/tasks/${task.id}`, { title: 'Second' });
      const res = await owner.client.patch(`/tasks/${task.id}`, { title: 'Third' });
      expect(res.status).toBe(200);
      expect((await read(task.id)).title).toBe('Third');
      expect((await lines(task.id)).map((l) => [l.kind, l.actorId])).toEqual([
        ['title', member.user.id],
        ['title', owner.user.id],
      ]);
    });

    it('answers 404 for an unknown task and 400 for a bad id', async () => {
      const res = await owner.client.patch(`/tasks/${randomUUID()}`, { title: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(TASK_NOT_FOUND);
      const bad = await owner.client.patch('/tasks/123', { title: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'That is not a task id.' });
    });
  });

  describe('delete and restore', () => {
    it('deletes with { ok, goesAt } 30 days ahead and a deleted line; then every route answers 404', async () => {
      const task = await newTask({ title: 'Doomed' });
      const before = Date.now();
      const res = await member.client.delete(`/tasks/${task.id}`);
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(['goesAt', 'ok']);
      expect(res.body.ok).toBe(true);
      const goesAt = new Date(res.body.goesAt).getTime();
      expect(goesAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 60_000);
      expect(goesAt).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 60_000);
      const listed = (await expectStatus(owner.client.get(`/projects/${project.id}/deleted`), 200)).deleted.find((r) => r.id === task.id);
      const deletedAt = new Date(listed?.deletedAt ?? NaN).getTime();
      expect(goesAt - deletedAt).toBe(30 * DAY_MS);
      expect((await feed(task.id)).map((l) => [l.kind, l.data, l.actorId])).toEqual([
        ['created', { selects: {} }, owner.user.id],
        ['deleted', { action: 'deleted' }, member.user.id],
      ]);
      const calls: [string, string, unknown?][] = [
        ['GET', `/tasks/${task.id}`],
        ['PATCH', `/tasks/${task.id}`, { title: 'x' }],
        ['POST', `/tasks/${task.id}/archive`],
        ['DELETE', `/tasks/${task.id}/archive`],
        ['PUT', `/tasks/${task.id}/values/${status.id}`, { value: opt('Done') }],
        ['POST', `/tasks/${task.id}/move`, {}],
        ['DELETE', `/tasks/${task.id}`],
      ];
      for (const [method, path, body] of calls) {
        const r = await owner.client.request(method, path, body);
        expect({ method, path, status: r.status, body: r.body }).toEqual({ method, path, status: 404, body: TASK_NOT_FOUND });
      }
      const b = await board();
      expect(b.tasks.some((x) => x.id === task.id)).toBe(false);
      expect(b.archived.some((x) => x.id === task.id)).toBe(false);
      expect((await feed(task.id)).map((l) => l.kind)).toEqual(['created', 'deleted']);
    });

    it('keeps a task deleted, and archived, when a delete and an archive race', async () => {
      for (let i = 0; i < 20; i++) {
        const task = await newTask({ title: `Race ${i}` });
        const [del, arch] = await Promise.all([owner.client.delete(`/tasks/${task.id}`), member.client.post(`/tasks/${task.id}/archive`)]);
        expect(del.status).toBe(200);
        // A race: both stamps as committed, which no read shows together (a deleted task reads 404).
        const stored = (await t.sql.query(`SELECT deleted_at, archived_at FROM tasks WHERE id = $1`, [task.id])).rows[0];
        expect({ round: i, deleted: stored.deleted_at !== null }).toEqual({ round: i, deleted: true });
        // An archive that got in before the delete is not undone by it.
        if (arch.status === 200) expect({ round: i, archived: stored.archived_at !== null }).toEqual({ round: i, archived: true });
        else expect(arch.body).toEqual(TASK_NOT_FOUND);
      }
    }, 60_000);

    it('lets an agent delete a task', async () => {
      const task = await newTask({ title: 'Robot food' });
      const res = await agent.client.delete(`/tasks/${task.id}`);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
    });

    it('restores a task with its key, rank and values, and writes a restored line', async () => {
      const a = await newTask({ title: 'Before' });
      const task = await newTask({ title: 'Comes back', values: { [status.id]: opt('In progress') } });
      const c = await newTask({ title: 'After' });
      await owner.client.delete(`/tasks/${task.id}`);
      const res = await member.client.post(`/tasks/${task.id}/restore`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const b = await board();
      const back = b.tasks.find((x) => x.id === task.id);
      expect(back).toMatchObject({ key: task.key, number: task.number, position: task.position, values: { [status.id]: opt('In progress') }, archivedAt: null });
      const ids = b.tasks.map((x) => x.id);
      expect(ids.indexOf(a.id)).toBe(ids.indexOf(task.id) - 1);
      expect(ids.indexOf(c.id)).toBe(ids.indexOf(task.id) + 1);
      expect((await feed(task.id)).map((l) => [l.kind, l.data, l.actorId])).toEqual([
        ['created', { selects: { [status.id]: opt('In progress') } }, owner.user.id],
        ['deleted', { action: 'deleted' }, owner.user.id],
        ['deleted', { action: 'restored' }, member.user.id],
      ]);
      expect((await owner.client.get(`/tasks/${task.id}`)).status).toBe(200);
    });

    it('brings back the checklist, comments and history with the task', async () => {
      const task = await newTask({ title: 'Rich' });
      await owner.client.post(`/tasks/${task.id}/checklist`, { text: 'Tick' });
      await member.client.post(`/tasks/${task.id}/comments`, { body: 'Remember me' });
      await owner.client.patch(`/tasks/${task.id}`, { title: 'Richer' });
      const before = await read(task.id);
      await owner.client.delete(`/tasks/${task.id}`);
      await owner.client.post(`/tasks/${task.id}/restore`);
      const after = await read(task.id);
      expect(after.checklist).toEqual(before.checklist);
      expect(after.comments).toEqual(before.comments);
      expect(after.title).toBe('Richer');
      expect(after.activity.slice(2)).toEqual(before.activity);
      expect(after.activity.slice(0, 2).map((a) => [a.kind, a.data])).toEqual([
        ['deleted', { action: 'restored' }],
        ['deleted', { action: 'deleted' }],
      ]);
    });

    it('brings an archived task back archived', async () => {
      const task = await newTask({ title: 'Archived then deleted' });
      await owner.client.post(`/tasks/${task.id}/archive`);
      const archivedAt = (await board()).archived.find((x) => x.id === task.id)!.archivedAt;
      await owner.client.delete(`/tasks/${task.id}`);
      expect((await owner.client.post(`/tasks/${task.id}/restore`)).status).toBe(200);
      const b = await board();
      expect(b.tasks.some((x) => x.id === task.id)).toBe(false);
      expect(b.archived.find((x) => x.id === task.id)).toMatchObject({ key: task.key, archivedAt });
    });

    it('answers 200 and writes nothing when restoring a live task', async () => {
      const task = await newTask({ title: 'Alive' });
      const res = await owner.client.post(`/tasks/${task.id}/restore`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await feed(task.id)).map((l) => l.kind)).toEqual(['created']);
      // Restoring twice writes one line.
      await owner.client.delete(`/tasks/${task.id}`);
      await owner.client.post(`/tasks/${task.id}/restore`);
      await owner.client.post(`/tasks/${task.id}/restore`);
      expect((await feed(task.id)).map((l) => l.kind)).toEqual(['created', 'deleted', 'deleted']);
    });

    it('answers 404 past the 30 days, and for unknown tasks', async () => {
      const task = await newTask({ title: 'Too late' });
      await owner.client.delete(`/tasks/${task.id}`);
      // A forced clock: the delete is moved 31 days back.
      await t.sql.query(`UPDATE tasks SET deleted_at = now() - interval '31 days' WHERE id = $1`, [task.id]);
      const res = await owner.client.post(`/tasks/${task.id}/restore`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(TASK_NOT_FOUND);
      expectError(await owner.client.get(`/tasks/${task.id}`), 404, TASK_NOT_FOUND.error);
      const unknown = await owner.client.post(`/tasks/${randomUUID()}/restore`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(TASK_NOT_FOUND);
      const bad = await owner.client.post(`/tasks/nope/restore`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'That is not a task id.' });
      // Inside the window, a day before it ends, it still comes back.
      const late = await newTask({ title: 'Just in time' });
      await owner.client.delete(`/tasks/${late.id}`);
      // A forced clock: the delete is moved 29 days back.
      await t.sql.query(`UPDATE tasks SET deleted_at = now() - interval '29 days' WHERE id = $1`, [late.id]);
      expect((await owner.client.post(`/tasks/${late.id}/restore`)).status).toBe(200);
    });

    it('refuses a restore by a non-member with 404', async () => {
      const task = await newTask({ title: 'Private' });
      await owner.client.delete(`/tasks/${task.id}`);
      const res = await outsider.client.post(`/tasks/${task.id}/restore`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(TASK_NOT_FOUND);
    });

    it('lists deleted tasks newest first with windowDays 30', async () => {
      const p = await createProject(owner.client, 'Bin', 'BIN');
      await addMember(owner.client, p.id, member);
      const one = await newTask({ title: 'One' }, owner.client, p.id);
      const two = await newTask({ title: 'Two' }, owner.client, p.id);
      const kept = await newTask({ title: 'Kept' }, owner.client, p.id);
      const old = await newTask({ title: 'Old' }, owner.client, p.id);
      const d1 = await owner.client.delete(`/tasks/${one.id}`);
      const d2 = await owner.client.delete(`/tasks/${two.id}`);
      await owner.client.delete(`/tasks/${old.id}`);
      // A forced clock: the delete is moved 31 days back.
      await t.sql.query(`UPDATE tasks SET deleted_at = now() - interval '31 days' WHERE id = $1`, [old.id]);
      const res = await member.client.get(`/projects/${p.id}/deleted`);
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(['deleted', 'windowDays']);
      expect(res.body.windowDays).toBe(30);
      expect(res.body.deleted).toEqual([
        { id: two.id, number: 2, key: 'BIN-2', title: 'Two', position: two.position, deletedAt: expect.any(String), goesAt: d2.body.goesAt },
        { id: one.id, number: 1, key: 'BIN-1', title: 'One', position: one.position, deletedAt: expect.any(String), goesAt: d1.body.goesAt },
      ]);
      for (const r of res.body.deleted) expect(new Date(r.goesAt).getTime() - new Date(r.deletedAt).getTime()).toBe(30 * DAY_MS);
      expect(res.body.deleted.some((r) => r.id === kept.id)).toBe(false);
      // An agent reads it too; an outsider gets 404.
      const a = await createAgent(owner.client, p.id, 'Binbot');
      expect((await a.client.get(`/projects/${p.id}/deleted`)).body.deleted).toHaveLength(2);
      const out = await outsider.client.get(`/projects/${p.id}/deleted`);
      expect(out.status).toBe(404);
      expect(out.body).toEqual({ error: 'Project not found.' });
      // A restored task leaves the list.
      await owner.client.post(`/tasks/${one.id}/restore`);
      expect((await owner.client.get(`/projects/${p.id}/deleted`)).body.deleted.map((r) => r.id)).toEqual([two.id]);
    });
  });

  describe('archive and unarchive', () => {
    const archiveLines = async (taskId: string) => (await feed(taskId)).filter((l) => l.kind === 'archive');

    it('archives once, keeps the first archivedAt and writes one line', async () => {
      const task = await newTask({ title: 'Shelve me', description: 'words', values: { [status.id]: opt('Done') } });
      const first = await agent.client.post(`/tasks/${task.id}/archive`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true });
      const at = (await read(task.id)).archivedAt;
      expect(at).not.toBeNull();
      const second = await owner.client.post(`/tasks/${task.id}/archive`);
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ ok: true });
      expect((await read(task.id)).archivedAt).toEqual(at);
      expect(await archiveLines(task.id)).toEqual([{ kind: 'archive', data: { action: 'archived' }, actorId: agent.agent.id }]);

      const b = await board();
      expect(b.tasks.some((x) => x.id === task.id)).toBe(false);
      const item = b.archived.find((x) => x.id === task.id);
      expect(sorted(Object.keys(item!))).toEqual(sorted(['id', 'number', 'key', 'title', 'description', 'position', 'archivedAt']));
      expect(item).toEqual({
        id: task.id,
        number: task.number,
        key: task.key,
        title: 'Shelve me',
        description: 'words',
        position: task.position,
        archivedAt: new Date(at ?? NaN).toISOString(),
      });
    });

    it('puts back once with its rank, writes one restored line', async () => {
      const task = await newTask({ title: 'Back again' });
      await owner.client.post(`/tasks/${task.id}/archive`);
      const first = await member.client.delete(`/tasks/${task.id}/archive`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true });
      const second = await member.client.delete(`/tasks/${task.id}/archive`);
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ ok: true });
      expect((await archiveLines(task.id)).map((l) => l.data)).toEqual([{ action: 'archived' }, { action: 'restored' }]);
      const b = await board();
      expect(b.archived.some((x) => x.id === task.id)).toBe(false);
      expect(b.tasks.find((x) => x.id === task.id)).toMatchObject({ position: task.position, archivedAt: null });
    });

    it('writes nothing when putting back a live task', async () => {
      const task = await newTask({ title: 'Never shelved' });
      expect((await owner.client.delete(`/tasks/${task.id}/archive`)).status).toBe(200);
      expect(await archiveLines(task.id)).toEqual([]);
    });

    it('answers 404 for another project’s task', async () => {
      const foreign = await newTask({ title: 'Theirs' }, outsider.client, otherProject.id);
      const res = await owner.client.post(`/tasks/${foreign.id}/archive`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(TASK_NOT_FOUND);
      expect((await read(foreign.id, outsider.client)).archivedAt).toBeNull();
    });
  });
});
