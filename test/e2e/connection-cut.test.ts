import { Client as PgClient } from 'pg';
import { createTask, expectStatus } from '../support/fixtures';
import { projectFeed } from '../support/builders-a';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * A database connection cut in the middle of a write: the request answers the plain 500, nothing
 * of the write stays, the process lives on and the next requests get fresh connections.
 */
describe('a database connection cut mid-request', () => {
  let t: TestApp;
  let owner: Person;
  let holder: PgClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Cato');
    holder = new PgClient({ connectionString: t.databaseUrl });
    holder.on('error', () => undefined);
    await holder.connect();
  });

  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await t?.close();
  });

  const INTERNAL = 'Something went wrong on our side. Try again in a moment.';
  /** The live tasks of a project, as its board lists them. */
  const boardTasks = async (projectId: string) => (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).tasks.length;

  /**
   * Holds the project lock, starts `request`, cuts the app's connection that waits for the lock, then lets go.
   * Storage itself: a lock held and a connection cut from outside the app, which no route can do.
   */
  async function cutWhileWaiting(projectId: string, request: () => Promise<{ status: number; body: unknown }>) {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1::uuid::text, 7))', [projectId]);
    const pending = request();
    let pid: number | undefined;
    for (let i = 0; i < 100 && pid === undefined; i++) {
      await new Promise((r) => setTimeout(r, 30));
      const rows = (
        await t.sql.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
          [(holder as unknown as { processID: number }).processID],
        )
      ).rows;
      pid = rows[0]?.pid;
    }
    expect(pid).toBeDefined();
    await t.sql.query('SELECT pg_terminate_backend($1)', [pid]);
    const res = await pending;
    await holder.query('COMMIT');
    return res;
  }

  it('answers 500 for a create at the end whose statement lost its connection, and the next create lands', async () => {
    const p = await createProject(owner.client, 'Cut', 'CUT');
    const res = await cutWhileWaiting(p.id, () => owner.client.post(`/projects/${p.id}/tasks`, { title: 'Lost' }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: INTERNAL });
    expect(await boardTasks(p.id)).toBe(0);
    const next = await owner.client.post(`/projects/${p.id}/tasks`, { title: 'Kept' });
    expect(next.status).toBe(201);
    expect(next.body.task.number).toBe(1);
    expect((await projectFeed(owner.client, p.id)).filter((l) => l.kind === 'created')).toHaveLength(1);
  });

  it('answers 500 for a write whose transaction lost its connection, and rolls all of it back', async () => {
    const p = await createProject(owner.client, 'Cut twice', 'CUT2');
    const anchor = await createTask(owner.client, p.id, 'Anchor');
    // A create after a task runs in a transaction that takes the project lock from the service.
    const res = await cutWhileWaiting(p.id, () => owner.client.post(`/projects/${p.id}/tasks`, { title: 'Lost', afterId: anchor.id }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: INTERNAL });
    expect(await boardTasks(p.id)).toBe(1);
    // Storage itself: the project's task counter, rolled back with the rest, is shown by no route.
    expect((await t.sql.query('SELECT task_counter::int AS n FROM projects WHERE id = $1', [p.id])).rows[0].n).toBe(1);
    const next = await owner.client.post(`/projects/${p.id}/tasks`, { title: 'Kept', afterId: anchor.id });
    expect(next.status).toBe(201);
    expect(next.body.task.number).toBe(2);
  });

  it('keeps serving after every idle connection of its pool is cut', async () => {
    const p = await createProject(owner.client, 'Idle', 'IDL');
    await createTask(owner.client, p.id, 'Before');
    // Storage itself: connections cut from outside the app.
    await t.sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'task-board' AND state = 'idle'`,
    );
    await new Promise((r) => setTimeout(r, 100));
    // A dead idle client may be handed out once more before the pool notices: at most one 500, then service.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await owner.client.get(`/projects/${p.id}/board`)).status);
    expect(answers.filter((s) => s !== 200).length).toBeLessThanOrEqual(1);
    expect(answers[answers.length - 1]).toBe(200);
    expect((await owner.client.post(`/projects/${p.id}/tasks`, { title: 'After' })).status).toBe(201);
  });
});
