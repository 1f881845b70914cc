import { feedLine, notice, ranksAfter, UnitOfWork, withEvents } from '@board/kernel';
import { Database } from '@board/persistence';
import { TaskCreateRepository } from '@board/tasks';
import { createProperty, createTask, holdTransaction } from '../support/fixtures';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * A create at the top or the end runs its serial part in one statement inside PostgreSQL
 * (TaskCreateRepository); a create after a task takes the project lock in the service. Both kinds at
 * once must still hand out each number once and keep every rank distinct and in place.
 */
describe('simultaneous creates', () => {
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Cora');
  });

  afterAll(async () => {
    await t?.close();
  });

  const board = async (projectId: string) => (await owner.client.get(`/projects/${projectId}/board`)).body;

  it('places 40 creates at the top, at the end and after one task, all at once', async () => {
    const p = await createProject(owner.client, 'Crowd', 'CRWD');
    const anchor = await createTask(owner.client, p.id, 'Anchor');
    const tail = await createTask(owner.client, p.id, 'Tail');
    const bodies = [
      ...Array.from({ length: 15 }, (_, i) => ({ title: `end ${i}` })),
      ...Array.from({ length: 15 }, (_, i) => ({ title: `top ${i}`, atTop: true })),
      ...Array.from({ length: 10 }, (_, i) => ({ title: `after ${i}`, afterId: anchor.id })),
    ];
    const answers = await Promise.all(bodies.map((b) => owner.client.post(`/projects/${p.id}/tasks`, b)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 201));
    expect(answers.map((a) => a.body.task.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 3));

    const tasks = (await board(p.id)).tasks;
    const positions = tasks.map((x) => x.position as string);
    expect(new Set(positions).size).toBe(42);
    for (let i = 1; i < positions.length; i++) expect(positions[i - 1] < positions[i]).toBe(true);
    const titles = tasks.map((x) => x.title as string);
    const kind = (title: string) => title.split(' ')[0];
    // Top ones first, then the anchor and the ones placed after it, then the tail, then the end ones.
    expect(titles.slice(0, 15).every((x) => kind(x) === 'top')).toBe(true);
    expect(titles[15]).toBe('Anchor');
    expect(titles.slice(16, 26).every((x) => kind(x) === 'after')).toBe(true);
    expect(titles[26]).toBe('Tail');
    expect(titles.slice(27).every((x) => kind(x) === 'end')).toBe(true);
    // Every answer is the task as the board shows it.
    for (const a of answers) expect(tasks.find((x) => x.id === a.body.task.id)).toEqual(
      Object.fromEntries(Object.entries(a.body.task).filter(([k]) => k !== 'projectId' && k !== 'createdBy')),
    );
    expect(tail.number).toBe(2);
  });

  it('answers a create with values and Type defaults as the board shows the task', async () => {
    const p = await createProject(owner.client, 'Shape', 'SHP');
    const size = await createProperty(owner.client, p.id, 'Size', 'number');
    const res = await owner.client.post(`/projects/${p.id}/tasks`, { title: 'Shaped', description: 'Body', values: { [size.id]: 3 } });
    expect(res.status).toBe(201);
    const shown = (await board(p.id)).tasks.find((x) => x.id === res.body.task.id);
    expect(res.body.task).toEqual({ ...shown, projectId: p.id, createdBy: owner.user.id });
    expect(res.body.task.values[size.id]).toBe(3);
  });

  it('writes nothing when the properties changed since the read, or when every offered rank is taken', async () => {
    const p = await createProject(owner.client, 'Turns', 'TRN');
    const first = await createTask(owner.client, p.id, 'First');
    const store = t.app.get(TaskCreateRepository);
    const context = (await store.load(p.id))!;
    expect(context.last).toBe(first.position);
    const input = {
      projectId: p.id,
      id: '00000000-0000-4000-8000-00000000c0de',
      title: 'Never',
      description: '',
      values: {},
      createdBy: owner.user.id,
      now: new Date(),
      atTop: false,
      ranks: ['a0'],
      defsFingerprint: context.defsFingerprint,
    };
    // The statement carries its created line and notice, written only when the task is.
    const uow = t.app.get(UnitOfWork);
    const create = (given: typeof input) =>
      uow.writeStatement(() =>
        withEvents(
          store.create(given),
          feedLine({ projectId: p.id, taskId: given.id, actorId: owner.user.id, kind: 'created', data: {} }),
          notice({ projectId: p.id, scope: 'board', clientId: null }),
        ),
      );
    // 'a0' is not past the edge (the first task's rank): nothing fits, the edge comes back.
    expect(first.position >= 'a0').toBe(true);
    expect(await create(input)).toEqual({ outcome: 'moved', edge: first.position });
    await createProperty(owner.client, p.id, 'Later', 'text');
    const [next] = ranksAfter(first.position, 1);
    expect(await create({ ...input, ranks: [next] })).toEqual({ outcome: 'stale' });
    const counter = (await t.sql.query('SELECT task_counter FROM projects WHERE id = $1', [p.id])).rows[0].task_counter;
    expect(Number(counter)).toBe(1);
    expect((await t.sql.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1', [p.id])).rows[0].n).toBe(1);
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM activity WHERE project_id = $1 AND kind = 'created'`, [p.id])).rows[0].n).toBe(1);
    // With a fresh read the same create lands, numbered next.
    const fresh = (await store.load(p.id))!;
    const made = await create({ ...input, ranks: ['a0', next], defsFingerprint: fresh.defsFingerprint });
    expect(made).toEqual({ outcome: 'created', number: 2, position: next });
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM activity WHERE project_id = $1 AND kind = 'created'`, [p.id])).rows[0].n).toBe(2);
  });

  it('waits for the project lock the rest of the service takes (the same key inside PostgreSQL)', async () => {
    const p = await createProject(owner.client, 'Queue', 'QUE');
    const hold = await holdTransaction(t.app.get(Database), undefined, { lockProject: p.id });
    const pending = owner.client.post(`/projects/${p.id}/tasks`, { title: 'Waits its turn' });
    await new Promise((r) => setTimeout(r, 400));
    const count = async () => (await t.sql.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1', [p.id])).rows[0].n;
    expect(await count()).toBe(0);
    await hold.release();
    expect((await pending).status).toBe(201);
    expect(await count()).toBe(1);
  });
});
