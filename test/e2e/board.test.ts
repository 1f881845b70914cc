import { randomUUID } from 'node:crypto';
import { createTaskFromBody, expectStatus } from '../support/fixtures';
import { aChecklistItem, aComment } from '../support/builders-a';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { BoardTaskAnswer, MemberAnswer, ProjectAnswer, TaskAnswer } from '../support/answers';

const BOARD_KEYS = ['archived', 'cardView', 'invites', 'members', 'project', 'properties', 'runs', 'tasks', 'views'];
const TASK_KEYS = [
  'archivedAt', 'blockedBy', 'checklistDone', 'checklistTotal', 'commentCount', 'createdAt', 'description', 'id', 'key', 'number', 'parts',
  'position', 'title', 'updatedAt', 'values',
];
const ARCHIVED_KEYS = ['archivedAt', 'description', 'id', 'key', 'number', 'position', 'title'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Status {
  id: string;
  todo: string;
  doing: string;
  done: string;
}

const newTask = (c: Client, projectId: string, title: string, extra: Record<string, unknown> = {}): Promise<TaskAnswer> =>
  createTaskFromBody(c, projectId, { title, ...extra });

async function setValue(c: Client, taskId: string, propertyId: string, value: unknown): Promise<void> {
  const res = await c.put(`/tasks/${taskId}/values/${propertyId}`, { value });
  if (res.status !== 200) throw new Error(`value write failed: ${res.status} ${JSON.stringify(res.body)}`);
}

const ok = <T>(res: Promise<{ status: number; body: T }>): Promise<T> => expectStatus(res, 200);

/** Every position strictly after the one before it, compared byte by byte (plain `<`, no locale). */
function expectRankOrder(tasks: { position: string }[]): void {
  for (let i = 1; i < tasks.length; i++) {
    if (!(tasks[i - 1].position < tasks[i].position)) {
      throw new Error(`rank order broken at ${i}: ${tasks[i - 1].position} then ${tasks[i].position}`);
    }
  }
}

describe('board reads', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let agent: { client: Client; agent: MemberAnswer };
  let project: ProjectAnswer;
  let status: Status;
  const inviteEmail = `future-${randomUUID().slice(0, 8)}@example.com`;

  const board = (c: Client = owner.client, projectId: string = project.id) => ok(c.get(`/projects/${projectId}/board`));
  const settings = (c: Client = owner.client, projectId: string = project.id) => ok(c.get(`/projects/${projectId}/settings`));
  const taskOf = async (id: string, c: Client = owner.client) => (await board(c)).tasks.find((x) => x.id === id);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    admin = await registerPerson(t, 'Ada');
    member = await registerPerson(t, 'Milo');
    outsider = await registerPerson(t, 'Oscar');
    project = await createProject(owner.client, 'Board', 'BRD');
    await addMember(owner.client, project.id, admin, 'admin');
    await addMember(owner.client, project.id, member);
    agent = await createAgent(owner.client, project.id, 'Robo');
    const invite = await owner.client.post(`/projects/${project.id}/members`, { email: inviteEmail });
    expect(invite.status).toBe(201);
    await createProject(outsider.client, 'Elsewhere', 'ELS');
    const b = await board();
    const prop = b.properties.find((p) => p.name === 'Status')!;
    const opt = (name: string) => prop.options.find((o) => o.name === name)!.id;
    status = { id: prop.id, todo: opt('To do'), doing: opt('In progress'), done: opt('Done') };
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/projects/:projectId/board', () => {
    it('answers exactly the nine keys, unwrapped, with runs empty', async () => {
      const b = await board();
      expect(Object.keys(b).sort()).toEqual(BOARD_KEYS);
      expect(b.runs).toEqual([]);
    });

    it('answers the project as { id, name, key, ownerId, role, doneWhen } with the caller\'s own role', async () => {
      const expected = (role: string) => ({
        id: project.id,
        name: 'Board',
        key: 'BRD',
        ownerId: owner.user.id,
        role,
        doneWhen: { propertyId: status.id, optionIds: [status.done] },
      });
      expect((await board(owner.client)).project).toEqual(expected('owner'));
      expect((await board(admin.client)).project).toEqual(expected('admin'));
      expect((await board(member.client)).project).toEqual(expected('member'));
      expect((await board(agent.client)).project).toEqual(expected('member'));
    });

    it('lists invites as { email, createdAt }', async () => {
      const { invites } = await board();
      expect(invites).toEqual([{ email: inviteEmail, createdAt: expect.stringMatching(ISO) }]);
      expect(Object.keys(invites[0]).sort()).toEqual(['createdAt', 'email']);
    });

    it('lists members, people and agents, as { id, name, email, color, emoji, role, kind }', async () => {
      const { members } = await board(member.client);
      const person = (p: Person, role: string) => ({ id: p.user.id, name: p.user.name, email: p.email, color: p.user.color, emoji: null, role, kind: 'human' });
      expect(members).toEqual([
        person(owner, 'owner'),
        person(admin, 'admin'),
        person(member, 'member'),
        { id: agent.agent.id, name: 'Robo', email: null, color: agent.agent.color, emoji: null, role: 'member', kind: 'agent' },
      ]);
      for (const m of members) expect(Object.keys(m).sort()).toEqual(['color', 'email', 'emoji', 'id', 'kind', 'name', 'role']);
      expect(members.some((m) => m.id === outsider.user.id)).toBe(false);
    });

    it('lists properties in display order, each with its options in order', async () => {
      const p = await createProject(owner.client, 'Props', 'PRP');
      const size = await owner.client.post(`/projects/${p.id}/properties`, { name: 'Size', type: 'select', options: ['S', 'M', 'L'] });
      expect(size.status).toBe(201);
      const notes = await owner.client.post(`/projects/${p.id}/properties`, { name: 'Notes', type: 'text' });
      expect(notes.status).toBe(201);
      // Notes to the front: null afterId means the front.
      expect((await owner.client.patch(`/properties/${notes.body.property.id}`, { afterId: null })).status).toBe(200);

      const { properties } = await board(owner.client, p.id);
      expect(properties.map((x) => x.name)).toEqual(['Notes', 'Status', 'Size']);
      expectRankOrder(properties);
      for (const x of properties) expect(Object.keys(x).sort()).toEqual(['config', 'id', 'name', 'options', 'position', 'type']);
      const [n, s, z] = properties;
      expect(n).toMatchObject({ id: notes.body.property.id, type: 'text', options: [] });
      expect(s.options.map((o) => o.name)).toEqual(['To do', 'In progress', 'Done']);
      expect(z).toMatchObject({ id: size.body.property.id, type: 'select' });
      expect(z.options.map((o) => o.name)).toEqual(['S', 'M', 'L']);
      expectRankOrder(z.options);
      for (const o of z.options) {
        expect(o).toEqual({ id: expect.any(String), propertyId: z.id, name: expect.any(String), color: expect.stringMatching(/^#[0-9a-f]{6}$/), position: expect.any(String) });
      }
    });

    it('lists views with the shared filters and no lens of the caller yet; the card view as a map of rows', async () => {
      const p = await createProject(owner.client, 'Views', 'VWS');
      {
        const b = await board(owner.client, p.id);
        const statusId = b.properties[0].id;
        expect(b.views).toHaveLength(1);
        // The View fields of the contract, exactly; a per-view card view may ride along (decisions.md).
        const { cardView: _viewCardView, ...view } = b.views[0];
        expect(view).toEqual({
          id: expect.any(String),
          name: 'Board',
          kind: 'board',
          groupById: statusId,
          position: expect.any(String),
          isDefault: true,
          filters: { rules: [] },
          sort: null,
          lens: { rules: [] },
          lensSort: null,
        });
        expect(b.cardView).toEqual({ rows: { _title: { place: 'title', mode: 'fixed' }, [statusId]: { place: 'headerL', mode: 'colour' } } });
      }
      // An agent reads no lens either.
      const robo = await createAgent(owner.client, p.id, 'Viewer');
      const views = (await board(robo.client, p.id)).views;
      expect(views[0].lens).toEqual({ rules: [] });
      expect(views[0].lensSort).toBeNull();
    });

    it('keeps tasks flat in one global rank order, whatever the column', async () => {
      const p = await createProject(owner.client, 'Ranks', 'RNK');
      const { properties } = await board(owner.client, p.id);
      const statusId = properties[0].id;
      const doneId = properties[0].options[2].id;
      const one = await newTask(owner.client, p.id, 'one');
      const two = await newTask(owner.client, p.id, 'two', { values: { [statusId]: doneId } });
      const three = await newTask(owner.client, p.id, 'three');
      const four = await newTask(owner.client, p.id, 'four', { afterId: one.id });
      const five = await newTask(owner.client, p.id, 'five', { atTop: true });
      const six = await newTask(owner.client, p.id, 'six', { afterId: four.id, values: { [statusId]: doneId } });

      const { tasks } = await board(owner.client, p.id);
      expect(tasks.map((x) => x.title)).toEqual(['five', 'one', 'four', 'six', 'two', 'three']);
      expectRankOrder(tasks);
      expect(tasks.map((x) => x.id)).toEqual([five.id, one.id, four.id, six.id, two.id, three.id]);
      expect(tasks.map((x) => x.key)).toEqual(['RNK-5', 'RNK-1', 'RNK-4', 'RNK-6', 'RNK-2', 'RNK-3']);

      // Squeezing forty tasks into the same gap keeps one strict byte order.
      const squeezed: string[] = [];
      for (let i = 0; i < 40; i++) squeezed.push((await newTask(owner.client, p.id, `s${i}`, { afterId: five.id })).id);
      for (let i = 0; i < 20; i++) squeezed.push((await newTask(owner.client, p.id, `t${i}`, { atTop: true })).id);
      const again = (await board(owner.client, p.id)).tasks;
      expectRankOrder(again);
      const expected = [
        ...squeezed.slice(40).reverse(),
        five.id,
        ...squeezed.slice(0, 40).reverse(),
        one.id, four.id, six.id, two.id, three.id,
      ];
      expect(again.map((x) => x.id)).toEqual(expected);
    });

    it('answers each task in the board shape with sparse values: a cleared value is absent', async () => {
      const notes = await owner.client.post(`/projects/${project.id}/properties`, { name: 'Remarks', type: 'text' });
      expect(notes.status).toBe(201);
      const notesId = notes.body.property.id;
      const task = await newTask(owner.client, project.id, 'Sparse', { description: 'some words' });

      let row = await taskOf(task.id);
      expect(Object.keys(row!).sort()).toEqual(TASK_KEYS);
      expect(row).toEqual({
        id: task.id,
        number: task.number,
        key: `BRD-${task.number}`,
        title: 'Sparse',
        description: 'some words',
        position: task.position,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        archivedAt: null,
        values: {},
        checklistTotal: 0,
        checklistDone: 0,
        commentCount: 0,
        blockedBy: [],
        parts: null,
      });

      await setValue(owner.client, task.id, status.id, status.doing);
      await setValue(owner.client, task.id, notesId, 'written');
      expect((await taskOf(task.id))!.values).toEqual({ [status.id]: status.doing, [notesId]: 'written' });

      await setValue(owner.client, task.id, status.id, null);
      await setValue(owner.client, task.id, notesId, '');
      row = await taskOf(task.id);
      expect(row!.values).toEqual({});
      expect(row!.values).not.toHaveProperty(status.id);
      expect(row!.values).not.toHaveProperty(notesId);
    });

    it('counts checklist items, ticked items and comments per task', async () => {
      const busy = await newTask(owner.client, project.id, 'Busy');
      const quiet = await newTask(owner.client, project.id, 'Quiet');
      await aChecklistItem(owner.client, busy.id, 'one', true);
      await aChecklistItem(owner.client, busy.id, 'two', false);
      await aChecklistItem(owner.client, busy.id, 'three', true);
      await aChecklistItem(owner.client, busy.id, 'four', false);
      await aComment(owner.client, busy.id, 'first');
      await aComment(member.client, busy.id, 'second');
      await aComment(agent.client, busy.id, 'third');

      const b = await board();
      const row = b.tasks.find((x) => x.id === busy.id);
      expect({ total: row!.checklistTotal, done: row!.checklistDone, comments: row!.commentCount }).toEqual({ total: 4, done: 2, comments: 3 });
      const other = b.tasks.find((x) => x.id === quiet.id);
      expect({ total: other!.checklistTotal, done: other!.checklistDone, comments: other!.commentCount }).toEqual({ total: 0, done: 0, comments: 0 });
    });

    it('lists as blockedBy the keys of the blockers that are not over', async () => {
      const waiting = await newTask(owner.client, project.id, 'Waiting');
      const finishes = await newTask(owner.client, project.id, 'Finishes');
      const goes = await newTask(owner.client, project.id, 'Goes away');
      const shelved = await newTask(owner.client, project.id, 'Shelved');
      const shelvedDone = await newTask(owner.client, project.id, 'Shelved done', { values: { [status.id]: status.done } });
      for (const b of [finishes, goes, shelved, shelvedDone]) {
        expect((await owner.client.post(`/tasks/${waiting.id}/blockers`, { blockerId: b.id })).body).toEqual({ ok: true });
      }
      const keys = (...ts: { key: string }[]) => ts.map((x) => x.key).sort();
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(finishes, goes, shelved));

      await setValue(owner.client, finishes.id, status.id, status.doing);
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(finishes, goes, shelved));
      await setValue(owner.client, finishes.id, status.id, status.done);
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(goes, shelved));

      expect((await owner.client.delete(`/tasks/${goes.id}`)).status).toBe(200);
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(shelved));

      expect((await owner.client.post(`/tasks/${shelved.id}/archive`)).status).toBe(200);
      expect((await taskOf(waiting.id))!.blockedBy).toEqual([shelved.key]);

      // Over no more: back in the list.
      await setValue(owner.client, finishes.id, status.id, status.todo);
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(finishes, shelved));
      // A deleted blocker restored is back too.
      expect((await owner.client.post(`/tasks/${goes.id}/restore`)).status).toBe(200);
      expect([...(await taskOf(waiting.id))!.blockedBy].sort()).toEqual(keys(finishes, goes, shelved));
    });

    it('answers parts as null without children, else { done, total } by doneWhen; archived counts done, deleted is not counted', async () => {
      const parent = await newTask(owner.client, project.id, 'Parent');
      expect((await taskOf(parent.id))!.parts).toBeNull();
      const done = await newTask(owner.client, project.id, 'Part done', { values: { [status.id]: status.done } });
      const doing = await newTask(owner.client, project.id, 'Part doing', { values: { [status.id]: status.doing } });
      const shelved = await newTask(owner.client, project.id, 'Part shelved', { values: { [status.id]: status.todo } });
      const gone = await newTask(owner.client, project.id, 'Part gone');
      for (const child of [done, doing, shelved, gone]) {
        expect((await owner.client.put(`/tasks/${child.id}/parent`, { parentId: parent.id })).body).toEqual({ ok: true, left: null });
      }
      expect((await taskOf(parent.id))!.parts).toEqual({ done: 1, total: 4 });
      for (const child of [done, doing, shelved, gone]) expect((await taskOf(child.id))!.parts).toBeNull();

      expect((await owner.client.post(`/tasks/${shelved.id}/archive`)).status).toBe(200);
      expect((await taskOf(parent.id))!.parts).toEqual({ done: 2, total: 4 });

      expect((await owner.client.delete(`/tasks/${gone.id}`)).status).toBe(200);
      expect((await taskOf(parent.id))!.parts).toEqual({ done: 2, total: 3 });

      await setValue(owner.client, doing.id, status.id, status.done);
      expect((await taskOf(parent.id))!.parts).toEqual({ done: 3, total: 3 });
      await setValue(owner.client, done.id, status.id, null);
      expect((await taskOf(parent.id))!.parts).toEqual({ done: 2, total: 3 });

      // The project decides what done means.
      const widen = await owner.client.patch(`/projects/${project.id}`, { doneWhen: { propertyId: status.id, optionIds: [status.todo, status.done] } });
      expect(widen.status).toBe(200);
      try {
        expect((await board()).project.doneWhen).toEqual({ propertyId: status.id, optionIds: [status.todo, status.done] });
        expect((await taskOf(parent.id))!.parts).toEqual({ done: 2, total: 3 });
        await setValue(owner.client, done.id, status.id, status.todo);
        expect((await taskOf(parent.id))!.parts).toEqual({ done: 3, total: 3 });
        expect((await owner.client.patch(`/projects/${project.id}`, { doneWhen: null })).status).toBe(200);
        expect((await board()).project.doneWhen).toBeNull();
        // Without doneWhen only the archived part is done.
        expect((await taskOf(parent.id))!.parts).toEqual({ done: 1, total: 3 });
      } finally {
        await owner.client.patch(`/projects/${project.id}`, { doneWhen: { propertyId: status.id, optionIds: [status.done] } });
      }
      expect((await board()).project.doneWhen).toEqual({ propertyId: status.id, optionIds: [status.done] });
    });

    it('puts an archived task only in archived, as { id, number, key, title, description, position, archivedAt }, and a deleted one nowhere', async () => {
      const keep = await newTask(owner.client, project.id, 'Kept in a drawer', { description: 'drawer words' });
      const bin = await newTask(owner.client, project.id, 'Binned');
      expect((await owner.client.post(`/tasks/${keep.id}/archive`)).status).toBe(200);
      expect((await owner.client.delete(`/tasks/${bin.id}`)).status).toBe(200);

      let b = await board();
      expect(b.tasks.find((x) => x.id === keep.id)).toBeUndefined();
      const row = b.archived.find((x) => x.id === keep.id);
      expect(row).toEqual({
        id: keep.id,
        number: keep.number,
        key: keep.key,
        title: 'Kept in a drawer',
        description: 'drawer words',
        position: keep.position,
        archivedAt: expect.stringMatching(ISO),
      });
      for (const a of b.archived) expect(Object.keys(a).sort()).toEqual(ARCHIVED_KEYS);
      expect([...b.tasks, ...b.archived].some((x) => x.id === bin.id)).toBe(false);
      const live = new Set(b.tasks.map((x) => x.id));
      expect(b.archived.filter((a) => live.has(a.id))).toEqual([]);
      expectRankOrder(b.archived);

      // Put back: on the board again at the rank it never lost, and out of archived.
      expect((await owner.client.delete(`/tasks/${keep.id}/archive`)).status).toBe(200);
      b = await board();
      expect(b.archived.find((x) => x.id === keep.id)).toBeUndefined();
      expect(b.tasks.find((x) => x.id === keep.id)).toMatchObject({ position: keep.position, archivedAt: null });
      expectRankOrder(b.tasks);
    });

    it('answers a non-member 404 Project not found., a bad id 400 and no credential 401', async () => {
      for (const path of ['board', 'settings']) {
        expect(await outsider.client.get(`/projects/${project.id}/${path}`)).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
        expect(await owner.client.get(`/projects/${randomUUID()}/${path}`)).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
        expect(await owner.client.get(`/projects/nope/${path}`)).toMatchObject({ status: 400, body: { error: 'That is not a project id.' } });
        expect(await new Client(t.api).get(`/projects/${project.id}/${path}`)).toMatchObject({
          status: 401,
          body: { error: 'Sign in first, or send an agent token.' },
        });
      }
    });

    it('answers a board of 300 tasks in one request, quickly (the read does not grow a query per task)', async () => {
      const p = await createProject(owner.client, 'Big', 'BIG');
      const statusProp = (await board(owner.client, p.id)).properties[0];
      const doneId = statusProp.options[2].id;
      const ids: string[] = [];
      for (let i = 0; i < 300; i++) {
        const values = i % 3 === 0 ? { [statusProp.id]: doneId } : undefined;
        const afterId = i % 7 === 6 ? ids[i - 3] : undefined;
        ids.push((await newTask(owner.client, p.id, `Task ${i}`, { values, afterId })).id);
      }
      // Something hanging off many tasks: checklist items, comments, links, parts (seeded in
      // storage: some 1,200 calls through the API would make this set-up the test's slowest part).
      await t.sql.query(
        `INSERT INTO checklist_items (id, project_id, task_id, text, done, position)
         SELECT gen_random_uuid(), $1, id, 'item', number % 2 = 0, 'a0' FROM tasks WHERE project_id = $1`,
        [p.id],
      );
      await t.sql.query(
        `INSERT INTO comments (id, project_id, task_id, author_id, body) SELECT gen_random_uuid(), $1, id, $2, 'hi' FROM tasks WHERE project_id = $1`,
        [p.id, owner.user.id],
      );
      await t.sql.query(
        `INSERT INTO task_links (project_id, task_id, blocker_id)
         SELECT $1, a.id, b.id FROM tasks a JOIN tasks b ON b.project_id = a.project_id AND b.number = a.number - 1 WHERE a.project_id = $1`,
        [p.id],
      );
      await t.sql.query(
        `UPDATE tasks c SET parent_id = p.id FROM tasks p
          WHERE c.project_id = $1 AND p.project_id = $1 AND c.number % 10 <> 0 AND p.number = (c.number / 10) * 10`,
        [p.id],
      );
      await board(owner.client, p.id); // warm up

      const started = Date.now();
      const res = await owner.client.get(`/projects/${p.id}/board`);
      const took = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.body.tasks).toHaveLength(300);
      expect(new Set(res.body.tasks.map((x) => x.id))).toEqual(new Set(ids));
      expectRankOrder(res.body.tasks);
      expect(took).toBeLessThan(2000);

      const byNumber = new Map<number, BoardTaskAnswer>(res.body.tasks.map((x) => [x.number, x]));
      expect(byNumber.get(2)).toMatchObject({ checklistTotal: 1, checklistDone: 1, commentCount: 1, blockedBy: [] }); // BIG-1 is done
      expect(byNumber.get(3)).toMatchObject({ checklistTotal: 1, checklistDone: 0, commentCount: 1, blockedBy: ['BIG-2'] });
      // BIG-10 holds BIG-11..19 as parts (numbers 12, 15, 18 are done).
      expect(byNumber.get(10)!.parts).toEqual({ done: 3, total: 9 });
      expect(byNumber.get(300)!.parts).toBeNull();
    }, 120_000);
  });

  describe('GET /api/projects/:projectId/settings', () => {
    it('answers the board with only the first three tasks, plus taskCount of the live tasks', async () => {
      const p = await createProject(owner.client, 'Settings', 'SET');
      const tasks = [];
      for (const title of ['a', 'b', 'c', 'd', 'e', 'f']) tasks.push(await newTask(owner.client, p.id, title));
      await newTask(owner.client, p.id, 'top', { atTop: true });
      expect((await owner.client.post(`/tasks/${tasks[4].id}/archive`)).status).toBe(200);
      expect((await owner.client.delete(`/tasks/${tasks[5].id}`)).status).toBe(200);

      const b = await board(owner.client, p.id);
      const s = await settings(owner.client, p.id);
      expect(Object.keys(s).sort()).toEqual([...BOARD_KEYS, 'taskCount'].sort());
      expect(b.tasks).toHaveLength(5);
      expect(s.tasks).toEqual(b.tasks.slice(0, 3));
      expect(s.tasks.map((x) => x.title)).toEqual(['top', 'a', 'b']);
      expect(s.taskCount).toBe(5);
      const { tasks: _bt, ...boardRest } = b;
      const { tasks: _st, taskCount: _tc, ...settingsRest } = s;
      expect(settingsRest).toEqual(boardRest);
    });

    it('answers taskCount 0 and no tasks for an empty project', async () => {
      const p = await createProject(owner.client, 'Empty', 'EMP');
      const s = await settings(owner.client, p.id);
      expect(s.tasks).toEqual([]);
      expect(s.taskCount).toBe(0);
    });

    it('answers each caller their own role, agents included', async () => {
      const s = await settings(agent.client);
      expect(s.project.role).toBe('member');
      expect((await settings(admin.client)).project.role).toBe('admin');
      expect((await settings(owner.client)).project.role).toBe('owner');
      const b = await board(agent.client);
      expect(s.taskCount).toBe(b.tasks.length);
      expect(s.tasks).toEqual(b.tasks.slice(0, 3));
    });
  });

  it('keeps a 29-day-old deletion out of both lists (a deleted task is nowhere until restored)', async () => {
    const task = await newTask(owner.client, project.id, 'Old bin');
    expect((await owner.client.delete(`/tasks/${task.id}`)).status).toBe(200);
    // A forced clock: 29 days cannot pass in a test.
    await t.sql.query('UPDATE tasks SET deleted_at = $2 WHERE id = $1', [task.id, new Date(Date.now() - 29 * DAY_MS)]);
    const b = await board();
    expect([...b.tasks, ...b.archived].some((x) => x.id === task.id)).toBe(false);
    const s = await settings();
    expect(s.taskCount).toBe(b.tasks.length);
  });
});
