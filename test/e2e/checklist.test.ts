import { randomUUID } from 'node:crypto';
import { Database } from '@board/persistence';
import { ChangeListener, createTask, holdTransaction, listenChanges, within } from '../support/fixtures';
import { Agent, aTeam } from '../support/builders';
import { deleteTask, readTask, taskFeed } from '../support/builders-a';
import { Client, createAgent, createProject, Person, startTestApp, TestApp } from '../support/test-app';
import type { ChecklistItemAnswer } from '../support/answers';

const CLASH = 'This changed while you typed.';
const ITEM_NOT_FOUND = 'Checklist item not found.';
const TASK_NOT_FOUND = 'Task not found.';
const LONG_AGO = '2000-01-01T00:00:00Z';

describe('checklist routes', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let projectId: string;
  let changes: ChangeListener;

  // Read off the project's feed: a line stored under another project would not show.
  const feed = (taskId: string) => taskFeed(owner.client, projectId, taskId, 'checklist');
  const checklist = async (taskId: string) => (await readTask(owner.client, taskId)).checklist;
  /** The item as the task read shows it (`{ text, done, position }`), or undefined when it is gone. */
  const itemOf = async (taskId: string, id: string) => {
    const item = (await checklist(taskId)).find((i) => i.id === id);
    return item && { text: item.text, done: item.done, position: item.position };
  };
  const updatedAt = async (taskId: string): Promise<Date> => new Date((await readTask(owner.client, taskId)).updatedAt);
  // A forced clock: the API never writes an updated_at in the past, so only storage can age a task.
  const ageTask = (taskId: string) => t.sql.query('UPDATE tasks SET updated_at = $2 WHERE id = $1', [taskId, LONG_AGO]);
  /** A new task of the project, made through the API; its create notice is taken so tests count only their own. */
  async function newTask(): Promise<string> {
    const task = await createTask(owner.client, projectId, 'A task');
    await changes.waitFor((n) => n.projectId === projectId);
    await changes.take();
    return task.id;
  }

  const checklistOf = async (taskId: string): Promise<{ id: string; text: string; done: boolean; position: string }[]> =>
    (await owner.client.get(`/tasks/${taskId}`)).body.task.checklist;

  async function addItem(taskId: string, text = 'Step', as: Client = owner.client) {
    const res = await as.post(`/tasks/${taskId}/checklist`, { text });
    expect(res.status).toBe(201);
    return res.body.item;
  }

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, { name: 'Checklists', key: 'CHK' });
    ({ owner, member, outsider, agent } = team);
    projectId = team.project.id;
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });
  beforeEach(() => changes.take());

  describe('POST /api/tasks/:taskId/checklist', () => {
    it('answers 201 { item } with the trimmed text, unticked, and writes one added line, the task time and a task notice', async () => {
      const taskId = await newTask();
      await ageTask(taskId);
      const res = await member.client.post(`/tasks/${taskId}/checklist`, { text: '  Write the tests  ' }, { headers: { 'x-service-client': 'tab-1' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ item: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskId, text: 'Write the tests', done: false, position: expect.any(String) } });
      const item = res.body.item;
      expect(await itemOf(taskId, item.id)).toEqual({ text: 'Write the tests', done: false, position: item.position });
      expect(await feed(taskId)).toEqual([{ kind: 'checklist', data: { itemId: item.id, action: 'added', text: 'Write the tests' }, actorId: member.user.id, taskId }]);
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: 'tab-1' }]);
    });

    it('appends each new item last', async () => {
      const taskId = await newTask();
      const items = [];
      for (const text of ['one', 'two', 'three', 'four']) items.push(await addItem(taskId, text));
      const positions = items.map((i) => i.position);
      expect([...positions].sort()).toEqual(positions);
      expect(new Set(positions).size).toBe(4);
      const read = await checklistOf(taskId);
      expect(read.map((i) => i.text)).toEqual(['one', 'two', 'three', 'four']);
    });

    it('lets an agent add items, as itself', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'From the agent', agent.client);
      const lines = await feed(taskId);
      expect(lines).toEqual([expect.objectContaining({ data: { itemId: item.id, action: 'added', text: 'From the agent' }, actorId: agent.agent.id })]);
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: null }]);
    });

    it('refuses a missing, empty, non-text or too long text with the Text messages and writes nothing', async () => {
      const taskId = await newTask();
      const cases: [unknown, string][] = [
        [{}, 'Text cannot be empty.'],
        [{ text: null }, 'Text cannot be empty.'],
        [{ text: '' }, 'Text cannot be empty.'],
        [{ text: '   ' }, 'Text cannot be empty.'],
        [{ text: 7 }, 'Text must be text.'],
        [{ text: ['a'] }, 'Text must be text.'],
        [{ text: 'x'.repeat(401) }, 'Text is too long (max 400 characters).'],
        [[], 'The request body must be JSON.'],
      ];
      for (const [body, error] of cases) {
        const res = await owner.client.post(`/tasks/${taskId}/checklist`, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      const raw = await owner.client.post(`/tasks/${taskId}/checklist`, undefined, { raw: '{"text":' });
      expect(raw.status).toBe(400);
      expect(raw.body).toEqual({ error: 'The request body must be JSON.' });
      expect(await checklist(taskId)).toEqual([]);
      expect(await feed(taskId)).toEqual([]);
      expect(await changes.take()).toEqual([]);
    });

    it('takes a dozen adds to one task at once in turn: each last, distinct ranks, one line each', async () => {
      const taskId = await newTask();
      const texts = Array.from({ length: 12 }, (_, i) => `Step ${i}`);
      const answers = await Promise.all(texts.map((text, i) => (i % 2 ? member.client : owner.client).post(`/tasks/${taskId}/checklist`, { text })));
      expect(answers.map((a) => a.status)).toEqual(texts.map(() => 201));
      const rows = await checklist(taskId);
      expect(rows).toHaveLength(12);
      expect(new Set(rows.map((r) => r.position)).size).toBe(12);
      expect((await feed(taskId)).length).toBe(12);
    });

    it('holds the task, not the project: adds go on while the project lock is held elsewhere, and wait for the task’s row', async () => {
      const [a, b] = [await newTask(), await newTask()];
      const db = t.app.get(Database);
      const hold = await holdTransaction(db, () => db.query('SELECT 1 FROM tasks WHERE project_id = $1 AND id = $2 FOR NO KEY UPDATE', [projectId, a]), { lockProject: projectId });
      // Task b: the project lock held elsewhere does not stop it (bounded: one that waited would answer only after the release).
      const free = await within(owner.client.post(`/tasks/${b}/checklist`, { text: 'Free' }));
      // Task a: waits for its row.
      const pending = owner.client.post(`/tasks/${a}/checklist`, { text: 'Waits' });
      await new Promise((r) => setTimeout(r, 300));
      const early = (await checklist(a)).length;
      await hold.release();
      expect(free?.status).toBe(201);
      expect(early).toBe(0);
      expect((await pending).status).toBe(201);
    });

    it('takes exactly 400 characters, counted as a person counts them', async () => {
      const taskId = await newTask();
      expect((await addItem(taskId, 'x'.repeat(400))).text).toHaveLength(400);
      expect((await addItem(taskId, '✅'.repeat(400))).text).toBe('✅'.repeat(400));
    });
  });

  describe('PATCH /api/checklist/:itemId', () => {
    it('ticks and unticks, writing checked and unchecked lines, the task time and a notice', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Tick me');
      await changes.take();
      await ageTask(taskId);
      const tick = await member.client.patch(`/checklist/${item.id}`, { done: true }, { headers: { 'x-service-client': 'tab-2' } });
      expect(tick.status).toBe(200);
      expect(tick.body).toEqual({ item: { ...item, done: true } });
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: 'tab-2' }]);
      const untick = await agent.client.patch(`/checklist/${item.id}`, { done: false });
      expect(untick.body).toEqual({ item: { ...item, done: false } });
      const lines = await feed(taskId);
      expect(lines.map((l) => [l.data, l.actorId])).toEqual([
        [{ itemId: item.id, action: 'added', text: 'Tick me' }, owner.user.id],
        [{ itemId: item.id, action: 'checked', text: 'Tick me' }, member.user.id],
        [{ itemId: item.id, action: 'unchecked', text: 'Tick me' }, agent.agent.id],
      ]);
      expect(lines.every((l) => l.taskId === taskId && l.kind === 'checklist')).toBe(true);
    });

    it('coerces done from any JSON value as Boolean would', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId);
      const cases: [unknown, boolean][] = [
        ['no', true], [0, false], [[], true], [null, false], [{}, true], ['', false], [1, true], ['false', true], [false, false],
      ];
      for (const [done, expected] of cases) {
        const res = await owner.client.patch<ChecklistItemAnswer>(`/checklist/${item.id}`, { done });
        expect({ done, status: res.status, got: res.body.item?.done }).toEqual({ done, status: 200, got: expected });
        expect((await itemOf(taskId, item.id))?.done).toBe(expected);
      }
    });

    it('changes the text (trimmed) and writes an edited line', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Old words');
      const res = await owner.client.patch(`/checklist/${item.id}`, { text: '  New words ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ item: { ...item, text: 'New words' } });
      expect((await feed(taskId)).map((l) => l.data.action)).toEqual(['added', 'edited']);
    });

    it('writes one edited line when text and tick change together', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Both');
      await changes.take();
      const res = await owner.client.patch(`/checklist/${item.id}`, { text: 'Both changed', done: true });
      expect(res.body).toEqual({ item: { ...item, text: 'Both changed', done: true } });
      expect((await feed(taskId)).map((l) => l.data)).toEqual([{ itemId: item.id, action: 'added', text: 'Both' }, { itemId: item.id, action: 'edited', text: 'Both changed' }]);
      expect(await changes.take()).toHaveLength(1);
    });

    it('answers { ok: true } and writes nothing when neither text nor done is sent', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Keep');
      await changes.take();
      await ageTask(taskId);
      for (const body of [{}, undefined, { baseText: 'something else' }, { position: '0' }]) {
        const res = await owner.client.patch(`/checklist/${item.id}`, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
      }
      // Items cannot be reordered: a position is not read.
      expect(await itemOf(taskId, item.id)).toEqual({ text: 'Keep', done: false, position: item.position });
      expect((await feed(taskId)).length).toBe(1);
      expect((await updatedAt(taskId)).toISOString()).toBe(new Date(LONG_AGO).toISOString());
      expect(await changes.take()).toEqual([]);
    });

    it('writes, records and rings nothing when the item already is as asked', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Same');
      await changes.take();
      await ageTask(taskId);
      for (const body of [{ text: 'Same' }, { done: false }, { text: ' Same ', done: 0 }, { text: 'Same', baseText: 'Same' }]) {
        const res = await owner.client.patch(`/checklist/${item.id}`, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ item });
      }
      expect((await feed(taskId)).length).toBe(1);
      expect((await updatedAt(taskId)).toISOString()).toBe(new Date(LONG_AGO).toISOString());
      expect(await changes.take()).toEqual([]);
    });

    it('without a base, the last write wins', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'First');
      await member.client.patch(`/checklist/${item.id}`, { text: 'Second' });
      const res = await owner.client.patch<ChecklistItemAnswer>(`/checklist/${item.id}`, { text: 'Third' });
      expect(res.body.item.text).toBe('Third');
    });

    it('writes when the saved text still is the base', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Base');
      const res = await owner.client.patch(`/checklist/${item.id}`, { text: 'Mine', baseText: 'Base', done: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ item: { ...item, text: 'Mine', done: true } });
    });

    it('on a clash answers 409 { error, current } and writes nothing, the tick included', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Base');
      await member.client.patch(`/checklist/${item.id}`, { text: 'Theirs' });
      await changes.take();
      await ageTask(taskId);
      const res = await owner.client.patch(`/checklist/${item.id}`, { text: 'Mine', baseText: 'Base', done: true });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: CLASH, current: 'Theirs' });
      // A tick with a stale base clashes too.
      const tick = await owner.client.patch(`/checklist/${item.id}`, { done: true, baseText: 'Base' });
      expect(tick.status).toBe(409);
      expect(tick.body).toEqual({ error: CLASH, current: 'Theirs' });
      expect(await itemOf(taskId, item.id)).toEqual({ text: 'Theirs', done: false, position: item.position });
      expect((await feed(taskId)).map((l) => l.data.action)).toEqual(['added', 'edited']);
      expect((await updatedAt(taskId)).toISOString()).toBe(new Date(LONG_AGO).toISOString());
      expect(await changes.take()).toEqual([]);
    });

    it('is no clash when the saved text already is the new text', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Base');
      await member.client.patch(`/checklist/${item.id}`, { text: 'Agreed' });
      const same = await owner.client.patch(`/checklist/${item.id}`, { text: 'Agreed', baseText: 'Base' });
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ item: { ...item, text: 'Agreed' } });
      expect((await feed(taskId)).length).toBe(2);
      // And the tick that came with it is written.
      const tick = await owner.client.patch(`/checklist/${item.id}`, { text: 'Agreed', baseText: 'Base', done: true });
      expect(tick.status).toBe(200);
      expect(tick.body).toEqual({ item: { ...item, text: 'Agreed', done: true } });
      expect((await feed(taskId)).map((l) => l.data.action)).toEqual(['added', 'edited', 'checked']);
    });

    it('lets only one of two writers from the same base through', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Base');
      const answers = await Promise.all([
        owner.client.patch<ChecklistItemAnswer>(`/checklist/${item.id}`, { text: 'From Olive', baseText: 'Base' }),
        member.client.patch<ChecklistItemAnswer>(`/checklist/${item.id}`, { text: 'From Milo', baseText: 'Base' }),
      ]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!.body.item.text;
      expect(answers.find((a) => a.status === 409)!.body).toEqual({ error: CLASH, current: winner });
      expect((await itemOf(taskId, item.id))?.text).toBe(winner);
    });

    it('refuses a text that is empty, too long or not text, and a base that is not text', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Keep');
      const cases: [unknown, string][] = [
        [{ text: '' }, 'Text cannot be empty.'],
        [{ text: null, done: true }, 'Text cannot be empty.'],
        [{ text: 3 }, 'Text must be text.'],
        [{ text: 'x'.repeat(401) }, 'Text is too long (max 400 characters).'],
        [{ text: 'ok', baseText: 4 }, 'BaseText must be text.'],
      ];
      for (const [body, error] of cases) {
        const res = await owner.client.patch(`/checklist/${item.id}`, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error } });
      }
      expect(await itemOf(taskId, item.id)).toEqual({ text: 'Keep', done: false, position: item.position });
    });
  });

  describe('DELETE /api/checklist/:itemId', () => {
    it('removes the item, writes a deleted line, the task time and a notice', async () => {
      const taskId = await newTask();
      const keep = await addItem(taskId, 'Keep');
      const item = await addItem(taskId, 'Remove');
      await changes.take();
      await ageTask(taskId);
      const res = await agent.client.delete(`/checklist/${item.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await itemOf(taskId, item.id)).toBeUndefined();
      expect(await itemOf(taskId, keep.id)).toBeDefined();
      expect((await feed(taskId)).at(-1)).toEqual({ kind: 'checklist', data: { itemId: item.id, action: 'deleted', text: 'Remove' }, actorId: agent.agent.id, taskId });
      expect((await updatedAt(taskId)).getTime()).toBeGreaterThan(new Date(LONG_AGO).getTime());
      expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId, clientId: null }]);
      const again = await owner.client.delete(`/checklist/${item.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: ITEM_NOT_FOUND });
      const patch = await owner.client.patch(`/checklist/${item.id}`, { done: true });
      expect(patch.status).toBe(404);
      expect(patch.body).toEqual({ error: ITEM_NOT_FOUND });
    });
  });

  describe('who may call', () => {
    it('refuses a caller without credentials', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId);
      const anon = new Client(t.api);
      for (const res of [
        await anon.post(`/tasks/${taskId}/checklist`, { text: 'x' }),
        await anon.patch(`/checklist/${item.id}`, { done: true }),
        await anon.delete(`/checklist/${item.id}`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Sign in first, or send an agent token.' });
      }
    });

    it('answers 400 for ids that are not ids and 404 for unknown ones', async () => {
      expect((await owner.client.post('/tasks/nope/checklist', { text: 'x' })).body).toEqual({ error: 'That is not a task id.' });
      expect((await owner.client.patch('/checklist/nope', { done: true })).body).toEqual({ error: 'That is not a checklist item id.' });
      expect((await owner.client.delete('/checklist/nope')).status).toBe(400);
      const unknownTask = await owner.client.post(`/tasks/${randomUUID()}/checklist`, { text: 'x' });
      expect([unknownTask.status, unknownTask.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const unknownItem = await owner.client.patch(`/checklist/${randomUUID()}`, { done: true });
      expect([unknownItem.status, unknownItem.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
      const unknownDelete = await owner.client.delete(`/checklist/${randomUUID()}`);
      expect([unknownDelete.status, unknownDelete.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
    });

    it('answers 404 to a non-member, and writes nothing', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Private');
      const add = await outsider.client.post(`/tasks/${taskId}/checklist`, { text: 'x' });
      expect([add.status, add.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const patch = await outsider.client.patch(`/checklist/${item.id}`, { text: 'Mine' });
      expect([patch.status, patch.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
      const del = await outsider.client.delete(`/checklist/${item.id}`);
      expect([del.status, del.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
      expect(await itemOf(taskId, item.id)).toEqual({ text: 'Private', done: false, position: item.position });
    });

    it('refuses an agent token of another project', async () => {
      const otherProject = (await createProject(owner.client, 'Other', 'OTH')).id;
      const otherAgent = await createAgent(owner.client, otherProject, 'Stranger');
      const taskId = await newTask();
      const item = await addItem(taskId);
      const res = await otherAgent.client.patch(`/checklist/${item.id}`, { done: true });
      expect([res.status, res.body]).toEqual([403, { error: 'That token belongs to another project.' }]);
      expect((await itemOf(taskId, item.id))?.done).toBe(false);
    });

    it('answers 404 on every route once the task is deleted', async () => {
      const taskId = await newTask();
      const item = await addItem(taskId, 'Gone with it');
      await deleteTask(owner.client, taskId);
      await changes.waitFor((n) => n.projectId === projectId);
      await changes.take();
      const add = await owner.client.post(`/tasks/${taskId}/checklist`, { text: 'x' });
      expect([add.status, add.body]).toEqual([404, { error: TASK_NOT_FOUND }]);
      const patch = await owner.client.patch(`/checklist/${item.id}`, { done: true });
      expect([patch.status, patch.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
      const del = await owner.client.delete(`/checklist/${item.id}`);
      expect([del.status, del.body]).toEqual([404, { error: ITEM_NOT_FOUND }]);
      // Storage itself: the task read answers 404 now, yet the item must be kept for a restore.
      expect((await t.sql.query('SELECT text, done, position FROM checklist_items WHERE id = $1', [item.id])).rows[0]).toEqual({ text: 'Gone with it', done: false, position: item.position });
      expect((await feed(taskId)).length).toBe(1);
      expect(await changes.take()).toEqual([]);
    });
  });

  describe("the task's full read", () => {
    it('shows the checklist as [{ id, text, done, position }] in the order items were added', async () => {
      const taskId = await newTask();
      const a = await addItem(taskId, 'A');
      const b = await addItem(taskId, 'B');
      await owner.client.patch(`/checklist/${b.id}`, { done: true });
      expect(await checklistOf(taskId)).toEqual([
        { id: a.id, text: 'A', done: false, position: a.position },
        { id: b.id, text: 'B', done: true, position: b.position },
      ]);
    });
  });
});
