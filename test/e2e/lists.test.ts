import { randomUUID } from 'node:crypto';
import { Database } from '@board/persistence';
import { aProject, aTeam, Prop } from '../support/builders';
import { deleteTask } from '../support/builders-a';
import { aPile, feedSize } from '../support/builders-c';
import { createProperty, createTask, expectError, expectStatus, listenChanges } from '../support/fixtures';
import { addMember, Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer } from '../support/answers';

/** A person's own lists of tasks across projects (decisions › Lists). */
describe('lists', () => {
  let t: TestApp;
  let pat: Person;
  let sam: Person;
  let robo: { client: Client };
  let alpha: ProjectAnswer;
  let beta: ProjectAnswer;
  let status: Prop;

  const newList = async (name = `List ${randomUUID().slice(0, 6)}`, c: Client = pat.client, extra: Record<string, unknown> = {}) =>
    (await expectStatus(c.post('/lists', { name, ...extra }), 201)).list;
  const read = async (listId: string, c: Client = pat.client) => expectStatus(c.get(`/lists/${listId}`), 200);
  const put = (listId: string, taskId: string, body: unknown = {}, c: Client = pat.client) => c.put(`/lists/${listId}/tasks/${taskId}`, body);
  const keys = async (listId: string) => (await read(listId)).tasks.map((x) => x.key);
  const names = async (c: Client = pat.client) => (await expectStatus(c.get('/lists'), 200)).lists.map((l) => l.name);

  beforeAll(async () => {
    t = await startTestApp();
    // Sam owns Alpha (with its agent) and Beta; Pat, whose lists these are, is a member of both.
    const team = await aTeam(t, { name: 'Alpha', key: 'AL' });
    ({ owner: sam, member: pat, agent: robo, project: alpha, status } = team);
    beta = (await aProject(sam.client, { name: 'Beta', key: 'BE' })).project;
    await addMember(sam.client, beta.id, pat);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the lists themselves', () => {
    it('are made at the end, first with afterId null, after afterId, and answer { id, name, count, createdAt }', async () => {
      const me = await registerPerson(t, 'Orderly');
      const a = await newList(' A ', me.client);
      expect(Object.keys(a)).toEqual(['id', 'name', 'count', 'createdAt']);
      expect(a).toMatchObject({ name: 'A', count: 0 });
      const b = await newList('B', me.client);
      await newList('Z', me.client, { afterId: null });
      await newList('AB', me.client, { afterId: a.id });
      await newList('Y', me.client, { afterId: randomUUID() });
      expect(await names(me.client)).toEqual(['Y', 'Z', 'A', 'AB', 'B']);
      const moved = await expectStatus(me.client.patch(`/lists/${b.id}`, { afterId: null, name: 'B2' }), 200);
      expect(moved.list).toMatchObject({ id: b.id, name: 'B2', count: 0 });
      expect(await names(me.client)).toEqual(['B2', 'Y', 'Z', 'A', 'AB']);
      await expectStatus(me.client.patch(`/lists/${b.id}`, { afterId: a.id }), 200);
      expect(await names(me.client)).toEqual(['Y', 'Z', 'A', 'B2', 'AB']);
      // Without afterId the list stays where it is.
      await expectStatus(me.client.patch(`/lists/${b.id}`, { name: 'B3' }), 200);
      expect(await names(me.client)).toEqual(['Y', 'Z', 'A', 'B3', 'AB']);
      expect(await expectStatus(me.client.delete(`/lists/${a.id}`), 200)).toEqual({ ok: true });
      expect(await names(me.client)).toEqual(['Y', 'Z', 'B3', 'AB']);
      expectError(await me.client.get(`/lists/${a.id}`), 404, 'List not found.');
    });

    it('refuse bad names and malformed ids with the contract sentences', async () => {
      const list = await newList();
      expectError(await pat.client.post('/lists', {}), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/lists', { name: null }), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/lists', { name: '   ' }), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/lists', { name: 5 }), 400, 'Name must be text.');
      expectError(await pat.client.post('/lists', { name: 'x'.repeat(101) }), 400, 'Name is too long (max 100 characters).');
      expect((await newList('x'.repeat(100))).name).toHaveLength(100);
      expectError(await pat.client.patch(`/lists/${list.id}`, { name: null }), 400, 'Name cannot be empty.');
      for (const [method, path] of [
        ['GET', '/lists/nope'],
        ['PATCH', '/lists/nope'],
        ['DELETE', '/lists/nope'],
        ['PUT', `/lists/nope/tasks/${randomUUID()}`],
        ['DELETE', `/lists/nope/tasks/${randomUUID()}`],
      ]) {
        expectError(await pat.client.request(method, path, method === 'PATCH' ? { name: 'x' } : undefined), 400, 'That is not a list id.', `${method} ${path}`);
      }
      expectError(await put(list.id, 'nope'), 400, 'That is not a task id.');
    });

    it('are nobody else\'s: another person gets 404 List not found. on every route, and an agent 403', async () => {
      const list = await newList('Mine');
      const task = await createTask(sam.client, alpha.id, 'Shared');
      const routes: [string, string, unknown?][] = [
        ['GET', `/lists/${list.id}`],
        ['PATCH', `/lists/${list.id}`, { name: 'Theirs' }],
        ['DELETE', `/lists/${list.id}`],
        ['PUT', `/lists/${list.id}/tasks/${task.id}`, {}],
        ['DELETE', `/lists/${list.id}/tasks/${task.id}`],
      ];
      for (const [method, path, body] of routes) expectError(await sam.client.request(method, path, body), 404, 'List not found.', `${method} ${path}`);
      for (const [method, path, body] of [...routes, ['GET', '/lists'], ['POST', '/lists', { name: 'Bot' }]] as [string, string, unknown?][]) {
        expectError(await robo.client.request(method, path, body), 403, 'Only a person can do this.', `${method} ${path}`);
      }
      expect(await names(sam.client)).not.toContain('Mine');
      expect((await read(list.id)).list.name).toBe('Mine');
    });

    it('keep at most 50 a person, however many creates race', async () => {
      const me = await registerPerson(t, 'Hoarder');
      const answers = await Promise.all(Array.from({ length: 56 }, (_, i) => me.client.post('/lists', { name: `L${i}` })));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(50);
      for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 400, 'You can keep at most 50 lists.');
      expect(await names(me.client)).toHaveLength(50);
    });
  });

  describe('tasks in a list', () => {
    it('are put first unless afterId names one of them, moved when already there, and read in the list\'s order', async () => {
      const list = await newList();
      const [a, b, c] = [await createTask(sam.client, alpha.id, 'A'), await createTask(sam.client, beta.id, 'B'), await createTask(sam.client, alpha.id, 'C')];
      expect(await expectStatus(put(list.id, a.id), 200)).toEqual({ ok: true });
      await expectStatus(put(list.id, b.id, { afterId: null }), 200);
      await expectStatus(put(list.id, c.id, { afterId: a.id }), 200);
      expect(await keys(list.id)).toEqual([b.key, a.key, c.key]);
      await expectStatus(put(list.id, b.id, { afterId: c.id }), 200);
      expect(await keys(list.id)).toEqual([a.key, c.key, b.key]);
      await expectStatus(put(list.id, b.id, { afterId: randomUUID() }), 200);
      expect(await keys(list.id)).toEqual([b.key, a.key, c.key]);
      await expectStatus(put(list.id, c.id), 200);
      expect(await keys(list.id)).toEqual([c.key, b.key, a.key]);
      expect(await expectStatus(pat.client.delete(`/lists/${list.id}/tasks/${b.id}`), 200)).toEqual({ ok: true });
      // Idempotent: not in the list, unknown.
      expect(await expectStatus(pat.client.delete(`/lists/${list.id}/tasks/${b.id}`), 200)).toEqual({ ok: true });
      expect(await expectStatus(pat.client.delete(`/lists/${list.id}/tasks/${randomUUID()}`), 200)).toEqual({ ok: true });
      expect(await keys(list.id)).toEqual([c.key, a.key]);
      expect((await read(list.id)).list).toMatchObject({ id: list.id, count: 2 });
      // Deleting the list leaves the tasks where they are.
      await expectStatus(pat.client.delete(`/lists/${list.id}`), 200);
      await expectStatus(sam.client.get(`/tasks/${a.id}`), 200);
    });

    it('answer the board\'s task item plus projectId, projectKey and archived, across projects', async () => {
      const list = await newList();
      const size = await createProperty(sam.client, beta.id, 'Size', 'select', ['S', 'L']);
      const blocker = await createTask(sam.client, alpha.id, 'Blocker');
      const a = await createTask(sam.client, alpha.id, 'Alpha task', { [status.id]: status.options[1].id });
      await expectStatus(sam.client.post(`/tasks/${a.id}/blockers`, { blockerId: blocker.id }), 200);
      await expectStatus(sam.client.post(`/tasks/${a.id}/checklist`, { text: 'one' }), 201);
      await expectStatus(sam.client.post(`/tasks/${a.id}/comments`, { body: 'hello' }), 201);
      const child = await createTask(sam.client, alpha.id, 'Part');
      await expectStatus(sam.client.put(`/tasks/${child.id}/parent`, { parentId: a.id }), 200);
      const b = await createTask(sam.client, beta.id, 'Beta task', { [size.id]: size.options[1].id });
      const archived = await createTask(sam.client, beta.id, 'Old one');
      await expectStatus(sam.client.post(`/tasks/${archived.id}/archive`), 200);
      for (const x of [archived, b, a]) await expectStatus(put(list.id, x.id), 200);
      const { list: head, tasks } = await read(list.id);
      expect(head).toMatchObject({ id: list.id, count: 3 });
      const boardA = (await expectStatus(pat.client.get(`/projects/${alpha.id}/board`), 200)).tasks.find((x) => x.id === a.id)!;
      const boardB = (await expectStatus(pat.client.get(`/projects/${beta.id}/board`), 200)).tasks.find((x) => x.id === b.id);
      expect(boardA.blockedBy).toEqual([blocker.key]);
      expect(boardA.parts).toEqual({ done: 0, total: 1 });
      expect(boardA.checklistTotal).toBe(1);
      expect(boardA.commentCount).toBe(1);
      expect(tasks[0]).toEqual({ ...boardA, projectId: alpha.id, projectKey: 'AL', archived: false });
      expect(tasks[1]).toEqual({ ...boardB, projectId: beta.id, projectKey: 'BE', archived: false });
      const full = await expectStatus(pat.client.get(`/tasks/${archived.id}`), 200);
      expect(tasks[2]).toMatchObject({ id: archived.id, key: archived.key, projectId: beta.id, projectKey: 'BE', archived: true, archivedAt: full.task.archivedAt, values: {} });
      expect(Object.keys(tasks[2])).toEqual(Object.keys(tasks[0]));
    });

    it('are read with the same few statements whatever the number of projects and tasks', async () => {
      const db = t.app.get(Database);
      const statementsOf = async (listId: string) => {
        const exec = db.exec.bind(db);
        let n = 0;
        db.exec = ((...args: Parameters<typeof exec>) => (n++, exec(...args))) as typeof db.exec;
        try {
          await read(listId);
        } finally {
          db.exec = exec;
        }
        return n;
      };
      const small = await newList();
      await expectStatus(put(small.id, (await createTask(sam.client, alpha.id, 'Alone')).id), 200);
      const big = await newList();
      for (let i = 0; i < 4; i++) {
        const p = await createProject(sam.client, `Many ${i}`, `MN${i}`);
        await addMember(sam.client, p.id, pat);
        for (let k = 0; k < 3; k++) await expectStatus(put(big.id, (await createTask(sam.client, p.id, `T${k}`)).id), 200);
      }
      expect((await read(big.id)).tasks).toHaveLength(12);
      // The fewest of three reads: a sweep of the app's own (leases, files, stream access) may send a
      // statement through the same Database while one read is counted.
      const fewest = async (listId: string) => Math.min(await statementsOf(listId), await statementsOf(listId), await statementsOf(listId));
      const few = await fewest(small.id);
      // The session check, then the list's six queries, sent together.
      expect(few).toBeLessThanOrEqual(7);
      expect(await fewest(big.id)).toBe(few);
    });

    it('refuse a task of a project the person is not in, and a deleted task, with 404 Task not found.', async () => {
      const list = await newList();
      const theirs = await createProject(sam.client, 'Private', 'PV');
      const hidden = await createTask(sam.client, theirs.id, 'Not yours');
      expectError(await put(list.id, hidden.id), 404, 'Task not found.');
      expectError(await put(list.id, randomUUID()), 404, 'Task not found.');
      const gone = await createTask(sam.client, alpha.id, 'Gone');
      await expectStatus(sam.client.delete(`/tasks/${gone.id}`), 200);
      expectError(await put(list.id, gone.id), 404, 'Task not found.');
      expect(await expectStatus(pat.client.delete(`/lists/${list.id}/tasks/${gone.id}`), 200)).toEqual({ ok: true });
      expect((await read(list.id)).tasks).toEqual([]);
    });

    it('hide a deleted task and the tasks of a project the person left, in their place, until restored or back', async () => {
      const list = await newList();
      const other = await createProject(sam.client, 'Gamma', 'GA');
      await addMember(sam.client, other.id, pat);
      const a = await createTask(sam.client, alpha.id, 'One');
      const g = await createTask(sam.client, other.id, 'Two');
      const c = await createTask(sam.client, alpha.id, 'Three');
      for (const x of [c, g, a]) await expectStatus(put(list.id, x.id), 200);
      expect(await keys(list.id)).toEqual([a.key, g.key, c.key]);

      await expectStatus(sam.client.delete(`/tasks/${a.id}`), 200);
      expect(await keys(list.id)).toEqual([g.key, c.key]);
      expect((await expectStatus(pat.client.get('/lists'), 200)).lists.find((l) => l.id === list.id)!.count).toBe(2);
      await expectStatus(sam.client.post(`/tasks/${a.id}/restore`), 200);
      expect(await keys(list.id)).toEqual([a.key, g.key, c.key]);

      await expectStatus(sam.client.delete(`/projects/${other.id}/members/${pat.user.id}`), 200);
      expect(await keys(list.id)).toEqual([a.key, c.key]);
      expect((await read(list.id)).list.count).toBe(2);
      // Moving after a hidden task still works by the list's own order.
      await expectStatus(put(list.id, c.id, { afterId: g.id }), 200);
      await addMember(sam.client, other.id, pat);
      expect(await keys(list.id)).toEqual([a.key, g.key, c.key]);
    });

    it('hold at most 500 tasks, hidden ones included, however many puts race', async () => {
      const list = await newList();
      const ids = (await aPile(sam.client, alpha.id, 499, { title: 'Filler' })).map((x) => x.id);
      for (let from = 0; from < ids.length; from += 20) await Promise.all(ids.slice(from, from + 20).map(async (id) => expectStatus(put(list.id, id), 200)));
      // One of them deleted: hidden, but it still takes its room.
      await deleteTask(sam.client, ids[0]);
      const extra = await Promise.all(Array.from({ length: 5 }, (_, i) => createTask(sam.client, beta.id, `Extra ${i}`)));
      const answers = await Promise.all(extra.map((x) => put(list.id, x.id)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 400, 'A list holds at most 500 tasks.');
      // Moving one already in a full list is no add.
      await expectStatus(put(list.id, ids[5], { afterId: null }), 200);
      const seen = await read(list.id);
      expect(seen.list.count).toBe(499);
      expect(seen.tasks[0].id).toBe(ids[5]);
    });

    it('ring nothing on any project stream and write no feed line', async () => {
      const task = await createTask(sam.client, alpha.id, 'Quiet');
      // Every project there is is Sam's: his projects' feeds are the whole feed.
      const feedBefore = await feedSize(sam.client);
      const l = await listenChanges(t.databaseUrl);
      try {
        const list = await newList();
        await expectStatus(pat.client.patch(`/lists/${list.id}`, { name: 'Renamed', afterId: null }), 200);
        await expectStatus(put(list.id, task.id), 200);
        await expectStatus(pat.client.delete(`/lists/${list.id}/tasks/${task.id}`), 200);
        await expectStatus(pat.client.delete(`/lists/${list.id}`), 200);
        expect(await l.take()).toEqual([]);
      } finally {
        await l.close();
      }
      expect(await feedSize(sam.client)).toBe(feedBefore);
    });
  });
});
