import { randomUUID } from 'node:crypto';
import { Database } from '@board/persistence';
import { createProperty, createTaskFromBody, expectStatus, holdTransaction, within } from '../support/fixtures';
import { readTask, taskFeed, valuesOf } from '../support/builders-b';
import type { ProjectAnswer, TaskAnswer } from '../support/answers';
import { Agent, aTeam, optionId, Prop, propertyNamed } from '../support/builders';
import { addMember, Client, createAgent, createProject, Person, startTestApp, TestApp } from '../support/test-app';

describe('POST /api/tasks/:taskId/move', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let project: ProjectAnswer;
  let status: Prop;

  const optOf = optionId;

  const newTask = (title: string, projectId: string = project.id, body: Record<string, unknown> = {}) =>
    createTaskFromBody(owner.client, projectId, { title, ...body });
  const boardTasks = async (projectId: string = project.id) => {
    const res = await owner.client.get(`/projects/${projectId}/board`);
    expect(res.status).toBe(200);
    return res.body.tasks;
  };
  const titles = async (projectId: string = project.id) => (await boardTasks(projectId)).map((x) => x.title);
  const storedValues = (taskId: string) => valuesOf(owner.client, taskId);
  const positionOf = async (taskId: string): Promise<string> => (await readTask(owner.client, taskId)).position;
  const feed = (taskId: string) => taskFeed(owner.client, taskId, { not: 'created' });
  const move = (taskId: string, body: unknown, as: Client = owner.client) => as.post(`/tasks/${taskId}/move`, body);

  /** Positions in board order must rise strictly (byte order, plain `<`). */
  function expectStrictlyRising(positions: string[]) {
    for (let i = 1; i < positions.length; i++) {
      if (!(positions[i - 1] < positions[i])) throw new Error(`positions ${i - 1} and ${i} are out of order: ${positions[i - 1]} / ${positions[i]}`);
    }
    expect(new Set(positions).size).toBe(positions.length);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider, project, agent, status } = await aTeam(t, { name: 'Moves', key: 'MOV' }));
  });
  afterAll(() => t.close());

  describe('placement', () => {
    let p: ProjectAnswer;
    let a: TaskAnswer, b: TaskAnswer, c: TaskAnswer, d: TaskAnswer;
    beforeEach(async () => {
      p = await createProject(owner.client, 'Order', `ORD${Math.floor(Math.random() * 1e6)}`);
      await addMember(owner.client, p.id, member);
      a = await newTask('A', p.id);
      b = await newTask('B', p.id);
      c = await newTask('C', p.id);
      d = await newTask('D', p.id);
    });

    it('puts a task straight before beforeId and answers { position, dropped: [] }', async () => {
      const res = await move(d.id, { beforeId: b.id }, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ position: expect.any(String), dropped: [] });
      expect(a.position < res.body.position && res.body.position < b.position).toBe(true);
      expect(await positionOf(d.id)).toBe(res.body.position);
      expect(await titles(p.id)).toEqual(['A', 'D', 'B', 'C']);
    });

    it('puts a task straight after afterId', async () => {
      const res = await move(a.id, { afterId: c.id });
      expect(res.status).toBe(200);
      expect(c.position < res.body.position && res.body.position < d.position).toBe(true);
      expect(await titles(p.id)).toEqual(['B', 'C', 'A', 'D']);
    });

    it('lets beforeId win over afterId', async () => {
      const res = await move(d.id, { beforeId: a.id, afterId: b.id });
      expect(res.status).toBe(200);
      expect(res.body.position < a.position).toBe(true);
      expect(await titles(p.id)).toEqual(['D', 'A', 'B', 'C']);
    });

    it('reads afterId when beforeId is null', async () => {
      const res = await move(a.id, { beforeId: null, afterId: b.id });
      expect(res.status).toBe(200);
      expect(await titles(p.id)).toEqual(['B', 'A', 'C', 'D']);
    });

    it('moves to the end with neither', async () => {
      for (const body of [{}, { beforeId: null, afterId: null }, undefined]) {
        const first = (await boardTasks(p.id))[0];
        const res = await move(first.id, body);
        expect(res.status).toBe(200);
        const tasks = await boardTasks(p.id);
        expect(tasks[tasks.length - 1].id).toBe(first.id);
        expect(tasks[tasks.length - 1].position).toBe(res.body.position);
      }
      expect(await titles(p.id)).toEqual(['D', 'A', 'B', 'C']);
    });

    it('moves to the front before the first task', async () => {
      const res = await move(c.id, { beforeId: a.id });
      expect(res.body.position < a.position).toBe(true);
      expect(await titles(p.id)).toEqual(['C', 'A', 'B', 'D']);
    });

    it('keeps the place when the task is its own anchor', async () => {
      const res = await move(b.id, { beforeId: b.id });
      expect(res.status).toBe(200);
      expect(res.body.position).toBe(b.position);
      expect(await titles(p.id)).toEqual(['A', 'B', 'C', 'D']);
    });

    it('writes no feed line for a bare move', async () => {
      const res = await move(a.id, { afterId: d.id });
      expect(res.status).toBe(200);
      expect(await feed(a.id)).toEqual([]);
      expect(await titles(p.id)).toEqual(['B', 'C', 'D', 'A']);
    });

    it('lets an agent move a task', async () => {
      const bot = await createAgent(owner.client, p.id, 'Mover');
      const res = await move(d.id, { beforeId: a.id }, bot.client);
      expect(res.status).toBe(200);
      expect(await titles(p.id)).toEqual(['D', 'A', 'B', 'C']);
    });

    it('refuses ids that are not UUIDs and anchors of other boards, moving nothing', async () => {
      const bad = await move(a.id, { beforeId: 'nope' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'That is not a task id.' });
      const badAfter = await move(a.id, { afterId: 12 });
      expect(badAfter.status).toBe(400);
      expect(badAfter.body).toEqual({ error: 'That is not a task id.' });
      const foreign = await newTask('Theirs', project.id);
      const other = await move(a.id, { beforeId: foreign.id });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ error: 'That task is not on this board.' });
      const unknown = await move(a.id, { afterId: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'That task is not on this board.' });
      // A deleted task anchors nothing.
      const gone = await newTask('Gone', p.id);
      await owner.client.delete(`/tasks/${gone.id}`);
      const deleted = await move(a.id, { afterId: gone.id });
      expect(deleted.status).toBe(404);
      expect(deleted.body).toEqual({ error: 'That task is not on this board.' });
      expect(await titles(p.id)).toEqual(['A', 'B', 'C', 'D']);
      const path = await move('nope', {});
      expect(path.status).toBe(400);
      expect(path.body).toEqual({ error: 'That is not a task id.' });
      const stranger = await move(a.id, {}, outsider.client);
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ error: 'Task not found.' });
    });
  });

  describe('values in the same call', () => {
    it('writes the column change with the move and a value line', async () => {
      const a = await newTask('Col A');
      const b = await newTask('Col B');
      const res = await move(a.id, { afterId: b.id, values: { [status.id]: optOf(status, 'In progress') } }, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ position: expect.any(String), dropped: [] });
      expect(b.position < res.body.position).toBe(true);
      expect(await storedValues(a.id)).toEqual({ [status.id]: optOf(status, 'In progress') });
      expect(await positionOf(a.id)).toBe(res.body.position);
      expect(await feed(a.id)).toEqual([{ kind: 'value', data: { property: 'Status', value: 'In progress', changes: { [status.id]: [null, optOf(status, 'In progress')] } }, actorId: member.user.id }]);
      // Into the column of tasks holding nothing.
      const back = await move(a.id, { beforeId: b.id, values: { [status.id]: null } });
      expect(back.status).toBe(200);
      expect(await storedValues(a.id)).toEqual({});
      expect((await feed(a.id)).map((l) => l.data)).toEqual([
        { property: 'Status', value: 'In progress', changes: { [status.id]: [null, optOf(status, 'In progress')] } },
        { property: 'Status', value: null, changes: { [status.id]: [optOf(status, 'In progress'), null] } },
      ]);
    });

    it('writes values even when the place stays', async () => {
      const a = await newTask('Stay');
      const res = await move(a.id, { beforeId: a.id, values: { [status.id]: optOf(status, 'Done') } });
      expect(res.status).toBe(200);
      expect(res.body.position).toBe(a.position);
      expect(await storedValues(a.id)).toEqual({ [status.id]: optOf(status, 'Done') });
    });

    it('refuses a bad value and moves nothing', async () => {
      const a = await newTask('Bad A');
      const b = await newTask('Bad B');
      const res = await move(a.id, { afterId: b.id, values: { [status.id]: 5 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Status needs one option.' });
      expect(await positionOf(a.id)).toBe(a.position);
      const gone = await move(a.id, { afterId: b.id, values: { [status.id]: randomUUID() } });
      expect(gone.body).toEqual({ error: 'One of the options does not exist any more.' });
      const notId = await move(a.id, { afterId: b.id, values: { nope: 1 } });
      expect(notId.body).toEqual({ error: 'That is not a property id.' });
      expect(await positionOf(a.id)).toBe(a.position);
      expect(await storedValues(a.id)).toEqual({});
      expect(await feed(a.id)).toEqual([]);
    });

    it('answers what a when rule dropped', async () => {
      const p = await createProject(owner.client, 'Rule moves', 'RMV');
      const stage = await createProperty(owner.client, p.id, 'Stage', 'select', ['Open', 'Closed']);
      const reason = await createProperty(owner.client, p.id, 'Reason', 'text');
      await expectStatus(owner.client.patch(`/properties/${reason.id}`, { when: { propertyId: stage.id, optionIds: [optOf(stage, 'Closed')] } }), 200);
      const a = await newTask('Closed one', p.id, { values: { [stage.id]: optOf(stage, 'Closed'), [reason.id]: 'Won’t fix' } });
      const b = await newTask('Other', p.id);
      expect(a.values).toEqual({ [stage.id]: optOf(stage, 'Closed'), [reason.id]: 'Won’t fix' });
      const moved = await move(a.id, { afterId: b.id, values: { [stage.id]: optOf(stage, 'Open') } });
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual({ position: expect.any(String), dropped: [{ taskId: a.id, propertyId: reason.id, name: 'Reason' }] });
      expect(await storedValues(a.id)).toEqual({ [stage.id]: optOf(stage, 'Open') });
      expect((await feed(a.id)).map((l) => l.data)).toEqual([
        { property: 'Stage', value: 'Open', changes: { [stage.id]: [optOf(stage, 'Closed'), optOf(stage, 'Open')] }, dropped: ['Reason'], propertyIds: [reason.id], hidBy: optOf(stage, 'Open') },
      ]);
      expect(await titles(p.id)).toEqual(['Other', 'Closed one']);
    });
  });

  describe('what a move waits for', () => {
    let p: ProjectAnswer;
    let a: TaskAnswer, b: TaskAnswer, c: TaskAnswer, d: TaskAnswer;
    const db = () => t.app.get(Database);
    /** A transaction holding one task's row, as a write to it does. */
    const holdRow = (taskId: string) => holdTransaction(db(), () => db().exec('SELECT 1 FROM tasks WHERE id = $1 FOR UPDATE', [taskId]));
    beforeEach(async () => {
      p = await createProject(owner.client, 'Waits', `WT${Math.floor(Math.random() * 1e6)}`);
      a = await newTask('A', p.id);
      b = await newTask('B', p.id);
      c = await newTask('C', p.id);
      d = await newTask('D', p.id);
    });

    it('takes no project lock between two tasks: a held project lock does not hold it up', async () => {
      const hold = await holdTransaction(db(), undefined, { lockProject: p.id });
      try {
        const res = await within(move(d.id, { afterId: a.id }), 3000);
        expect(res?.status).toBe(200);
        const own = await propertyNamed(owner.client, p.id, 'Status');
        const valued = await within(move(a.id, { beforeId: c.id, values: { [own.id]: optOf(own, 'Done') } }), 3000);
        expect(valued?.status).toBe(200);
      } finally {
        await hold.release();
      }
      expect(await titles(p.id)).toEqual(['D', 'B', 'A', 'C']);
    });

    it('waits for the project lock at either end of the order, where creates append', async () => {
      for (const [body, order] of [[{}, ['B', 'C', 'D', 'A']], [{ beforeId: b.id }, ['A', 'B', 'C', 'D']], [{ afterId: d.id }, ['B', 'C', 'D', 'A']]] as const) {
        const hold = await holdTransaction(db(), undefined, { lockProject: p.id });
        const pending = move(a.id, body);
        expect(await within(pending, 400)).toBeNull();
        await hold.release();
        expect((await pending).status).toBe(200);
        expect(await titles(p.id)).toEqual(order);
      }
    });

    it('waits while a write holds a task beside its gap, and not for one beside another gap', async () => {
      const e = await newTask('E', p.id);
      const f = await newTask('F', p.id);
      const held = await holdRow(b.id);
      try {
        // Between A and B: B is held.
        const pending = move(c.id, { afterId: a.id });
        expect(await within(pending, 400)).toBeNull();
        // Between D and E: nothing held there.
        expect((await within(move(f.id, { afterId: d.id }), 3000))?.status).toBe(200);
        await held.release();
        expect((await pending).status).toBe(200);
      } finally {
        await held.release();
      }
      expect(await titles(p.id)).toEqual(['A', 'C', 'B', 'D', 'F', 'E']);
    });
  });

  describe('many moves', () => {
    it('keeps positions distinct and rising after 2,000 moves into the same gap', async () => {
      const p = await createProject(owner.client, 'Stress', 'STR');
      const left = await newTask('Left', p.id);
      const x = await newTask('X', p.id);
      const y = await newTask('Y', p.id);
      const right = await newTask('Right', p.id);
      const movers = [x, y];
      for (let i = 0; i < 2000; i++) {
        const mover = movers[i % 2];
        const other = movers[(i + 1) % 2];
        const res = await move(mover.id, i % 4 < 2 ? { afterId: left.id } : { beforeId: other.id });
        if (res.status !== 200) throw new Error(`move ${i} answered ${res.status} ${JSON.stringify(res.body)}`);
        const pos = res.body.position as string;
        if (!(left.position < pos && pos < right.position)) throw new Error(`move ${i} left the gap: ${pos}`);
        if (other.position !== undefined && !(pos < other.position)) throw new Error(`move ${i} did not land before the other mover: ${pos} / ${other.position}`);
        mover.position = pos;
      }
      const tasks = await boardTasks(p.id);
      expect(tasks.map((x) => x.title)).toEqual(['Left', 'Y', 'X', 'Right']);
      expectStrictlyRising(tasks.map((x) => x.position));
      expect(tasks[1].position).toBe(y.position);
      expect(tasks[2].position).toBe(x.position);
      // Still room: one more task straight after Left lands in the gap.
      const extra = await newTask('Extra', p.id, { afterId: left.id });
      expect(left.position < extra.position && extra.position < y.position).toBe(true);
    }, 180_000);

    it('keeps a move racing an archive or unarchive of the same task', async () => {
      const p = await createProject(owner.client, 'Race', 'RACE');
      const a = await newTask('A', p.id);
      const b = await newTask('B', p.id);
      for (let i = 1; i <= 30; i++) {
        const [moved, shelf] = await Promise.all([
          move(a.id, i % 2 ? { afterId: b.id } : { beforeId: b.id }),
          i % 2 ? owner.client.post(`/tasks/${a.id}/archive`) : owner.client.delete(`/tasks/${a.id}/archive`),
        ]);
        expect(moved.status).toBe(200);
        expect(shelf.status).toBe(200);
        const stored = await readTask(owner.client, a.id);
        expect({ round: i, position: stored.position }).toEqual({ round: i, position: moved.body.position });
        expect({ round: i, archived: stored.archivedAt !== null }).toEqual({ round: i, archived: i % 2 === 1 });
      }
    }, 60_000);

    it('keeps every position distinct when 20 tasks move into one gap at once', async () => {
      const p = await createProject(owner.client, 'Rush', 'RSH');
      await addMember(owner.client, p.id, member);
      const left = await newTask('Left', p.id);
      const right = await newTask('Right', p.id);
      const movers: TaskAnswer[] = [];
      for (let i = 0; i < 20; i++) movers.push(await newTask(`M${i}`, p.id));
      const answers = await Promise.all(
        movers.map((m, i) => move(m.id, i % 2 === 0 ? { afterId: left.id } : { beforeId: right.id }, i % 3 === 0 ? member.client : owner.client)),
      );
      for (const a of answers) expect(a.status).toBe(200);
      const positions = answers.map((a) => a.body.position as string);
      expect(new Set(positions).size).toBe(20);
      for (const pos of positions) expect(left.position < pos && pos < right.position).toBe(true);
      const tasks = await boardTasks(p.id);
      expect(tasks[0].title).toBe('Left');
      expect(tasks[21].title).toBe('Right');
      expectStrictlyRising(tasks.map((x) => x.position));
      for (const m of movers) expect(tasks.find((x) => x.id === m.id)!.position).toBe(positions[movers.indexOf(m)]);
    }, 60_000);
  });
});
