import { randomUUID } from 'node:crypto';
import { ChangeListener, createTaskFromBody, listenChanges } from '../support/fixtures';
import { linksAmong, readTask, taskFeed } from '../support/builders-b';
import { Agent, aTeam, optionId } from '../support/builders';
import { Client, createProject, Person, startTestApp, TestApp } from '../support/test-app';
import type { BoardAnswer, TaskAnswer } from '../support/answers';

const NOT_ON_BOARD = { error: 'That task is not on this board.' };
const NOT_A_TASK_ID = { error: 'That is not a task id.' };

/** Anything with an id: a task as every answer gives it. */
type Ref = { id: string };

describe('blockers and parents', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let projectId: string;
  let otherProjectId: string;
  let status: { id: string; done: string; todo: string };
  let changes: ChangeListener;
  let counter = 0;

  const newTask = (title = `Task ${++counter}`, projectOf: string = projectId, c: Client = owner.client, extra: Record<string, unknown> = {}): Promise<TaskAnswer> =>
    createTaskFromBody(c, projectOf, { title, ...extra });
  const block = (task: Ref, blocker: Ref, c: Client = owner.client) => c.post(`/tasks/${task.id}/blockers`, { blockerId: blocker.id });
  const unblock = (task: Ref, blocker: Ref, c: Client = owner.client) => c.delete(`/tasks/${task.id}/blockers/${blocker.id}`);
  const parent = (task: Ref, p: Ref, c: Client = owner.client) => c.put(`/tasks/${task.id}/parent`, { parentId: p.id });
  const unparent = (task: Ref, c: Client = owner.client) => c.delete(`/tasks/${task.id}/parent`);
  const linkFeed = async (taskId: string) => (await taskFeed(owner.client, taskId, 'link')).map((r) => r.data);
  const actorsOfLinkFeed = async (taskId: string) => (await taskFeed(owner.client, taskId, 'link')).map((r) => r.actorId);
  /** The links touching the tasks, as `{ task_id, blocker_id }` (both ends read through the API). */
  const linkRows = async (...ids: string[]) => (await linksAmong(owner.client, ...ids)).map((l) => ({ task_id: l.taskId, blocker_id: l.blockerId }));
  /** Storage itself, for links of deleted tasks, which no read shows. */
  const storedLinkRows = async (...ids: string[]) =>
    (await t.sql.query(`SELECT task_id, blocker_id FROM task_links WHERE task_id = ANY($1::uuid[]) OR blocker_id = ANY($1::uuid[]) ORDER BY task_id, blocker_id`, [ids])).rows;
  const full = async (id: string, c: Client = owner.client) => {
    const res = await c.get(`/tasks/${id}`);
    if (res.status !== 200) throw new Error(`task read failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.task;
  };
  /** A task as the board lists it, live or archived (an archived one has no links or parts to show). */
  const boardTask = async (id: string): Promise<Partial<BoardAnswer['tasks'][number]> | undefined> => {
    const res = await owner.client.get(`/projects/${projectId}/board`);
    return res.body.tasks.find((x) => x.id === id) ?? res.body.archived.find((x) => x.id === id);
  };
  const row = (task: { id: string; key: string; title: string }, over = false) => ({ id: task.id, key: task.key, title: task.title, over });
  const setStatus = async (task: Ref, value: string | null) => {
    const res = await owner.client.put(`/tasks/${task.id}/values/${status.id}`, { value });
    if (res.status !== 200) throw new Error(`value write failed: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const ringsFor = async (taskId: string) => (await changes.take()).filter((c) => c.projectId === projectId && (c.taskId ?? null) === taskId);

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, { name: 'Links', key: 'LNK' });
    ({ owner, member, outsider, agent } = team);
    projectId = team.project.id;
    otherProjectId = (await createProject(owner.client, 'Other', 'OTH')).id;
    status = { id: team.status.id, todo: optionId(team.status, 'To do'), done: optionId(team.status, 'Done') };
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });
  beforeEach(() => changes.take());

  describe('POST /api/tasks/:taskId/blockers', () => {
    it('links, answers { ok: true }, writes one linked line on the task that gained it and rings the board', async () => {
      const a = await newTask('Waits');
      const b = await newTask('Blocks');
      await changes.take();
      const res = await block(a, b, owner.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await linkRows(a.id, b.id)).toEqual([{ task_id: a.id, blocker_id: b.id }]);
      expect(await linkFeed(a.id)).toEqual([{ action: 'linked', blockerKey: b.key }]);
      expect(await actorsOfLinkFeed(a.id)).toEqual([owner.user.id]);
      expect(await linkFeed(b.id)).toEqual([]);
      expect(await ringsFor(a.id)).toEqual([{ projectId, scope: 'board', taskId: a.id, clientId: null }]);

      expect((await boardTask(a.id))!.blockedBy).toEqual([b.key]);
      expect((await boardTask(b.id))!.blockedBy).toEqual([]);
      expect((await full(a.id)).links).toEqual({ blockedBy: [row(b)], blocks: [] });
      expect((await full(b.id)).links).toEqual({ blockedBy: [], blocks: [row(a)] });
    });

    it('is idempotent: a second call answers { ok: true } and writes and rings nothing', async () => {
      const a = await newTask();
      const b = await newTask();
      expect((await block(a, b)).body).toEqual({ ok: true });
      await changes.take();
      const again = await block(a, b, member.client);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true });
      expect(await linkFeed(a.id)).toEqual([{ action: 'linked', blockerKey: b.key }]);
      expect(await linkRows(a.id, b.id)).toHaveLength(1);
      expect(await ringsFor(a.id)).toEqual([]);
    });

    it('lets members and agents link; the line names the caller', async () => {
      const a = await newTask();
      const b = await newTask();
      const c = await newTask();
      expect((await block(a, b, member.client)).body).toEqual({ ok: true });
      expect((await block(a, c, agent.client)).body).toEqual({ ok: true });
      expect(await actorsOfLinkFeed(a.id)).toEqual([member.user.id, agent.agent.id]);
      expect([...(await boardTask(a.id))!.blockedBy!].sort()).toEqual([b.key, c.key].sort());
    });

    it('refuses a task waiting on itself with 409 A task cannot wait on itself.', async () => {
      const a = await newTask();
      const res = await block(a, a);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'A task cannot wait on itself.' });
      expect(await linkRows(a.id)).toEqual([]);
      expect(await linkFeed(a.id)).toEqual([]);
    });

    it('refuses a direct circle with 409 naming both keys', async () => {
      const a = await newTask();
      const b = await newTask();
      expect((await block(a, b)).body).toEqual({ ok: true });
      const res = await block(b, a);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: `${a.key} already waits on ${b.key}, so this would be a circle.` });
      expect(await linkRows(a.id, b.id)).toEqual([{ task_id: a.id, blocker_id: b.id }]);
      expect(await linkFeed(b.id)).toEqual([]);
    });

    it('refuses a circle through others (three steps) with the keys of both ends', async () => {
      const a = await newTask();
      const b = await newTask();
      const c = await newTask();
      expect((await block(a, b)).body).toEqual({ ok: true });
      expect((await block(b, c)).body).toEqual({ ok: true });
      // C waiting on A would close A → B → C → A.
      const res = await block(c, a);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: `${a.key} already waits on ${c.key}, so this would be a circle.` });
      expect(await linkFeed(c.id)).toEqual([]);
      // A four-step one names its ends too.
      const d = await newTask();
      expect((await block(c, d)).body).toEqual({ ok: true });
      const res4 = await block(d, a);
      expect(res4).toMatchObject({ status: 409, body: { error: `${a.key} already waits on ${d.key}, so this would be a circle.` } });
      const res4b = await block(d, b);
      expect(res4b).toMatchObject({ status: 409, body: { error: `${b.key} already waits on ${d.key}, so this would be a circle.` } });
      // Shapes that are no circle pass: a shortcut along the chain, and a diamond.
      expect((await block(a, c)).body).toEqual({ ok: true });
      expect((await block(a, d)).body).toEqual({ ok: true });
      const e = await newTask();
      expect((await block(e, b)).body).toEqual({ ok: true });
      expect((await block(e, c)).body).toEqual({ ok: true });
      expect(await linkRows(a.id, b.id, c.id, d.id, e.id)).toHaveLength(7);
    });

    it('links to an archived task, but answers 404 That task is not on this board. for a task of another project or a deleted one', async () => {
      const a = await newTask();
      const shelved = await newTask();
      expect((await owner.client.post(`/tasks/${shelved.id}/archive`)).status).toBe(200);
      expect((await block(a, shelved)).body).toEqual({ ok: true });

      const foreign = await newTask('Foreign', otherProjectId);
      expect(await block(a, foreign)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      const binned = await newTask();
      expect((await owner.client.delete(`/tasks/${binned.id}`)).status).toBe(200);
      expect(await block(a, binned)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      expect(await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: randomUUID() })).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      expect(await linkRows(a.id)).toEqual([{ task_id: a.id, blocker_id: shelved.id }]);
      expect(await linkFeed(a.id)).toEqual([{ action: 'linked', blockerKey: shelved.key }]);
    });

    it('answers 400 That is not a task id. for a blocker id that is not a uuid', async () => {
      const a = await newTask();
      for (const blockerId of ['nope', 42, null, undefined, ` ${a.id}`]) {
        const res = await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId });
        expect({ blockerId, status: res.status, body: res.body }).toEqual({ blockerId, status: 400, body: NOT_A_TASK_ID });
      }
      expect(await owner.client.post(`/tasks/nope/blockers`, { blockerId: a.id })).toMatchObject({ status: 400, body: NOT_A_TASK_ID });
      expect(await linkRows(a.id)).toEqual([]);
    });

    it('answers 404 to a non-member, and to anyone for a deleted task', async () => {
      const a = await newTask();
      const b = await newTask();
      expect(await block(a, b, outsider.client)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
      expect((await owner.client.delete(`/tasks/${a.id}`)).status).toBe(200);
      expect(await block(a, b)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
      expect(await storedLinkRows(a.id, b.id)).toEqual([]);
    });

    it('never lets both of two opposite links through when they come at once', async () => {
      for (let i = 0; i < 15; i++) {
        const a = await newTask(`Race A${i}`);
        const b = await newTask(`Race B${i}`);
        const [ab, ba] = await Promise.all([block(a, b, owner.client), block(b, a, member.client)]);
        const statuses = [ab.status, ba.status].sort();
        expect({ i, statuses }).toEqual({ i, statuses: [200, 409] });
        const rows = await linkRows(a.id, b.id);
        expect(rows).toHaveLength(1);
        const won = ab.status === 200 ? { task: a, blocker: b, lost: ba } : { task: b, blocker: a, lost: ab };
        expect(rows[0]).toEqual({ task_id: won.task.id, blocker_id: won.blocker.id });
        expect(won.lost.body).toEqual({ error: `${won.task.key} already waits on ${won.blocker.key}, so this would be a circle.` });
      }
    }, 60_000);
  });

  describe('DELETE /api/tasks/:taskId/blockers/:blockerId', () => {
    it('unlinks, answers { ok: true }, writes one unlinked line and rings; a second call writes and rings nothing', async () => {
      const a = await newTask();
      const b = await newTask();
      expect((await block(a, b)).body).toEqual({ ok: true });
      await changes.take();

      const res = await unblock(a, b, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await linkRows(a.id, b.id)).toEqual([]);
      expect(await linkFeed(a.id)).toEqual([
        { action: 'linked', blockerKey: b.key },
        { action: 'unlinked', blockerKey: b.key },
      ]);
      expect(await linkFeed(b.id)).toEqual([]);
      expect(await ringsFor(a.id)).toEqual([{ projectId, scope: 'board', taskId: a.id, clientId: null }]);
      expect((await boardTask(a.id))!.blockedBy).toEqual([]);
      expect((await full(b.id)).links.blocks).toEqual([]);

      const again = await unblock(a, b);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true });
      expect(await linkFeed(a.id)).toHaveLength(2);
      expect(await ringsFor(a.id)).toEqual([]);

      // Never linked the other way round: nothing to remove, nothing written.
      expect((await unblock(b, a)).body).toEqual({ ok: true });
      expect(await linkFeed(b.id)).toEqual([]);
    });

    it('answers 400 for a blocker id that is not a uuid and 404 for a task of another project or a deleted one', async () => {
      const a = await newTask();
      expect(await owner.client.delete(`/tasks/${a.id}/blockers/nope`)).toMatchObject({ status: 400, body: NOT_A_TASK_ID });
      const foreign = await newTask('Foreign', otherProjectId);
      expect(await unblock(a, foreign)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      expect(await owner.client.delete(`/tasks/${a.id}/blockers/${randomUUID()}`)).toMatchObject({ status: 404, body: NOT_ON_BOARD });

      // A deleted blocker is gone for every route but restore: its link stays for the restore to bring back.
      const b = await newTask();
      expect((await block(a, b)).body).toEqual({ ok: true });
      expect((await owner.client.delete(`/tasks/${b.id}`)).status).toBe(200);
      expect(await unblock(a, b)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      expect(await storedLinkRows(a.id, b.id)).toEqual([{ task_id: a.id, blocker_id: b.id }]);
      expect(await linkFeed(a.id)).toEqual([{ action: 'linked', blockerKey: b.key }]);
      expect((await owner.client.post(`/tasks/${b.id}/restore`)).status).toBe(200);
      expect((await boardTask(a.id))!.blockedBy).toEqual([b.key]);
    });

    it('takes ids in upper case', async () => {
      const a = await newTask();
      const b = await newTask();
      expect(await owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: a.id.toUpperCase() })).toMatchObject({
        status: 409,
        body: { error: 'A task cannot wait on itself.' },
      });
      expect((await owner.client.post(`/tasks/${a.id.toUpperCase()}/blockers`, { blockerId: b.id.toUpperCase() })).body).toEqual({ ok: true });
      expect(await linkRows(a.id, b.id)).toEqual([{ task_id: a.id, blocker_id: b.id }]);
      expect((await owner.client.delete(`/tasks/${a.id}/blockers/${b.id.toUpperCase()}`)).body).toEqual({ ok: true });
      expect(await linkRows(a.id, b.id)).toEqual([]);
      expect(await owner.client.put(`/tasks/${a.id}/parent`, { parentId: a.id.toUpperCase() })).toMatchObject({
        status: 409,
        body: { error: 'A task cannot be part of itself.' },
      });
      expect((await owner.client.put(`/tasks/${a.id}/parent`, { parentId: b.id.toUpperCase() })).body).toEqual({ ok: true, left: null });
      expect((await owner.client.put(`/tasks/${a.id}/parent`, { parentId: b.id.toUpperCase() })).body).toEqual({ ok: true, left: null });
      expect(await linkFeed(a.id)).toEqual([
        { action: 'linked', blockerKey: b.key },
        { action: 'unlinked', blockerKey: b.key },
        { action: 'parented', parentKey: b.key },
      ]);
    });
  });

  describe('PUT /api/tasks/:taskId/parent', () => {
    it('makes a part, answers { ok: true, left: null }, writes parented on the part and rings', async () => {
      const p = await newTask('Parent');
      const c = await newTask('Child');
      await changes.take();
      const res = await parent(c, p, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, left: null });
      expect(await linkFeed(c.id)).toEqual([{ action: 'parented', parentKey: p.key }]);
      expect(await linkFeed(p.id)).toEqual([]);
      expect(await ringsFor(c.id)).toEqual([{ projectId, scope: 'board', taskId: c.id, clientId: null }]);

      const child = await full(c.id);
      expect(child.parent).toEqual(row(p));
      expect(child.children).toEqual([]);
      const par = await full(p.id);
      expect(par.parent).toBeNull();
      expect(par.children).toEqual([row(c)]);
      expect((await boardTask(p.id))!.parts).toEqual({ done: 0, total: 1 });
      expect((await boardTask(c.id))!.parts).toBeNull();
      // A part is never a blocker: the parent does not wait on its unfinished part.
      expect((await boardTask(p.id))!.blockedBy).toEqual([]);
      expect(par.links).toEqual({ blockedBy: [], blocks: [] });
      expect(await linkRows(p.id, c.id)).toEqual([]);
    });

    it('never lets two tasks become parts of each other when both calls come at once', async () => {
      for (let i = 0; i < 10; i++) {
        const a = await newTask(`Pair A${i}`);
        const b = await newTask(`Pair B${i}`);
        const [ab, ba] = await Promise.all([parent(a, b, owner.client), parent(b, a, member.client)]);
        expect({ i, statuses: [ab.status, ba.status].sort() }).toEqual({ i, statuses: [200, 409] });
        const rows = await Promise.all([a, b].map(async (x) => ({ id: x.id, parent_id: (await readTask(owner.client, x.id)).parent?.id ?? null })));
        const parented = rows.filter((r) => r.parent_id !== null);
        expect(parented).toHaveLength(1);
        const [part, whole, winner, loser] = ab.status === 200 ? [a, b, ab, ba] : [b, a, ba, ab];
        expect(parented[0]).toEqual({ id: part.id, parent_id: whole.id });
        expect(winner.body).toEqual({ ok: true, left: null });
        expect(loser.body).toEqual({ error: `${part.key} is part of ${whole.key}, so it cannot have parts of its own.` });
      }
    }, 60_000);

    it('writes and rings nothing for the same parent again', async () => {
      const p = await newTask();
      const c = await newTask();
      expect((await parent(c, p)).body).toEqual({ ok: true, left: null });
      await changes.take();
      const again = await parent(c, p, agent.client);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true, left: null });
      expect(await linkFeed(c.id)).toHaveLength(1);
      expect(await ringsFor(c.id)).toEqual([]);
    });

    it('moves a part to another parent and answers the key it left', async () => {
      const first = await newTask('First');
      const second = await newTask('Second');
      const c = await newTask();
      expect((await parent(c, first)).body).toEqual({ ok: true, left: null });
      const res = await parent(c, second);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, left: first.key });
      expect(await linkFeed(c.id)).toEqual([
        { action: 'parented', parentKey: first.key },
        { action: 'unparented', parentKey: first.key },
        { action: 'parented', parentKey: second.key },
      ]);
      expect((await full(c.id)).parent).toEqual(row(second));
      expect((await full(first.id)).children).toEqual([]);
      expect((await full(second.id)).children).toEqual([row(c)]);
      expect((await boardTask(first.id))!.parts).toBeNull();
      expect((await boardTask(second.id))!.parts).toEqual({ done: 0, total: 1 });
    });

    it('refuses a task as its own part: 409 A task cannot be part of itself.', async () => {
      const a = await newTask();
      expect(await parent(a, a)).toMatchObject({ status: 409, body: { error: 'A task cannot be part of itself.' } });
      expect((await full(a.id)).parent).toBeNull();
      expect(await linkFeed(a.id)).toEqual([]);
    });

    it('keeps parts one level deep, naming the keys', async () => {
      const top = await newTask('Top');
      const mid = await newTask('Mid');
      const other = await newTask('Other');
      expect((await parent(mid, top)).body).toEqual({ ok: true, left: null });

      // The parent is already a part.
      const r1 = await parent(other, mid);
      expect(r1.status).toBe(409);
      expect(r1.body).toEqual({ error: `${mid.key} is part of ${top.key}, so it cannot have parts of its own.` });
      // The task has parts of its own.
      const r2 = await parent(top, other);
      expect(r2.status).toBe(409);
      expect(r2.body).toEqual({ error: `${top.key} has parts of its own, so it cannot be part of another task.` });
      // Its own part as its parent.
      const r3 = await parent(top, mid);
      expect(r3.status).toBe(409);
      expect(r3.body).toEqual({ error: `${mid.key} is part of ${top.key}, so it cannot have parts of its own.` });

      expect((await full(other.id)).parent).toBeNull();
      expect((await full(top.id)).parent).toBeNull();
      expect(await linkFeed(other.id)).toEqual([]);
      expect(await linkFeed(top.id)).toEqual([]);

      // A task whose only part is deleted has no parts any more.
      expect((await owner.client.delete(`/tasks/${mid.id}`)).status).toBe(200);
      expect((await parent(top, other)).body).toEqual({ ok: true, left: null });
    });

    it('answers 404 That task is not on this board. for a parent of another project or a deleted one; 400 for a bad id', async () => {
      const c = await newTask();
      const foreign = await newTask('Foreign', otherProjectId);
      expect(await parent(c, foreign)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      const binned = await newTask();
      expect((await owner.client.delete(`/tasks/${binned.id}`)).status).toBe(200);
      expect(await parent(c, binned)).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      expect(await owner.client.put(`/tasks/${c.id}/parent`, { parentId: randomUUID() })).toMatchObject({ status: 404, body: NOT_ON_BOARD });
      for (const parentId of ['nope', 7, null, undefined]) {
        const res = await owner.client.put(`/tasks/${c.id}/parent`, { parentId });
        expect({ parentId, status: res.status, body: res.body }).toEqual({ parentId, status: 400, body: NOT_A_TASK_ID });
      }
      expect((await full(c.id)).parent).toBeNull();
      expect(await linkFeed(c.id)).toEqual([]);
    });

    it('reads parent as { id, key, title, over } and children in board order', async () => {
      const p = await newTask('Epic');
      const c1 = await newTask('c1');
      const c2 = await newTask('c2');
      const c3 = await newTask('c3');
      const c0 = await newTask('c0', projectId, owner.client, { atTop: true });
      const cMid = await newTask('c1.5', projectId, owner.client, { afterId: c1.id });
      for (const c of [c3, c1, c0, c2, cMid]) expect((await parent(c, p)).body).toEqual({ ok: true, left: null });
      await setStatus(c2, status.done);

      expect((await full(p.id)).children).toEqual([row(c0), row(c1), row(cMid), row(c2, true), row(c3)]);
      expect((await full(c1.id)).parent).toEqual(row(p));
      await setStatus(p, status.done);
      expect((await full(c1.id)).parent).toEqual(row(p, true));
      expect((await boardTask(p.id))!.parts).toEqual({ done: 1, total: 5 });
      const board = (await owner.client.get(`/projects/${projectId}/board`)).body.tasks.map((x) => x.id);
      const childIds = (await full(p.id)).children.map((x) => x.id);
      expect(childIds).toEqual(board.filter((id: string) => childIds.includes(id)));
    });
  });

  describe('DELETE /api/tasks/:taskId/parent', () => {
    it('takes the part off, answers { ok: true }, writes unparented; without a parent writes and rings nothing', async () => {
      const p = await newTask();
      const c = await newTask();
      expect((await parent(c, p)).body).toEqual({ ok: true, left: null });
      await changes.take();

      const res = await unparent(c, agent.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await linkFeed(c.id)).toEqual([
        { action: 'parented', parentKey: p.key },
        { action: 'unparented', parentKey: p.key },
      ]);
      expect(await ringsFor(c.id)).toEqual([{ projectId, scope: 'board', taskId: c.id, clientId: null }]);
      expect((await full(c.id)).parent).toBeNull();
      expect((await full(p.id)).children).toEqual([]);
      expect((await boardTask(p.id))!.parts).toBeNull();

      const again = await unparent(c);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true });
      expect(await linkFeed(c.id)).toHaveLength(2);
      expect(await ringsFor(c.id)).toEqual([]);
      const never = await newTask();
      expect((await unparent(never)).body).toEqual({ ok: true });
      expect(await linkFeed(never.id)).toEqual([]);
    });

    it('writes and rings nothing when the parent is deleted (it reads as no parent), and the part is back with a restore', async () => {
      const p = await newTask();
      const c = await newTask();
      expect((await parent(c, p)).body).toEqual({ ok: true, left: null });
      expect((await owner.client.delete(`/tasks/${p.id}`)).status).toBe(200);
      expect((await full(c.id)).parent).toBeNull();
      await changes.take();
      const res = await unparent(c);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await linkFeed(c.id)).toEqual([{ action: 'parented', parentKey: p.key }]);
      expect(await ringsFor(c.id)).toEqual([]);
      expect((await owner.client.post(`/tasks/${p.id}/restore`)).status).toBe(200);
      expect((await full(c.id)).parent).toEqual(row(p));
      expect((await boardTask(p.id))!.parts).toEqual({ done: 0, total: 1 });
    });

    it('answers 404 to a non-member and 400 for a bad task id', async () => {
      const c = await newTask();
      expect(await unparent(c, outsider.client)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
      expect(await owner.client.delete(`/tasks/nope/parent`)).toMatchObject({ status: 400, body: NOT_A_TASK_ID });
    });
  });
});
