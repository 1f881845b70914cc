import { randomUUID } from 'node:crypto';
import { RetentionSweeper } from '../../apps/api/src/tasks/retention.sweeper';
import { createTaskFromBody } from '../support/fixtures';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { BoardTaskAnswer } from '../support/answers';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

describe('RetentionSweeper: deleted tasks past their 30 days go for good', () => {
  let t: TestApp;
  let sweeper: RetentionSweeper;
  let owner: Person;
  let projectId: string;

  const newTask = (title: string, projectOf = projectId) =>
    createTaskFromBody(owner.client, projectOf, { title, description: `about ${title}` });

  /** A task with a bit of everything hanging off it: checklist, comments, feed lines. */
  async function busyTask(title: string) {
    const task = await newTask(title);
    for (const text of ['one', 'two']) {
      const res = await owner.client.post(`/tasks/${task.id}/checklist`, { text });
      if (res.status !== 201 && res.status !== 200) {
        await t.sql.query('INSERT INTO checklist_items (id, project_id, task_id, text, done, position) VALUES ($1, $2, $3, $4, false, $5)', [
          randomUUID(), projectId, task.id, text, `a${text}`,
        ]);
      }
    }
    const res = await owner.client.post(`/tasks/${task.id}/comments`, { body: `a word on ${title}` });
    if (res.status !== 201 && res.status !== 200) {
      await t.sql.query('INSERT INTO comments (id, project_id, task_id, author_id, body) VALUES ($1, $2, $3, $4, $5)', [
        randomUUID(), projectId, task.id, owner.user.id, 'a word',
      ]);
    }
    return task;
  }

  async function remove(task: { id: string }, deletedAt: Date): Promise<void> {
    const res = await owner.client.delete(`/tasks/${task.id}`);
    if (res.status !== 200) throw new Error(`delete failed: ${res.status} ${JSON.stringify(res.body)}`);
    await t.sql.query('UPDATE tasks SET deleted_at = $2 WHERE id = $1', [task.id, deletedAt]);
  }

  const count = async (sql: string, params: unknown[]) => Number((await t.sql.query(sql, params)).rows[0].n);
  /** What is left of some tasks, table by table. */
  async function leftOf(ids: string[]) {
    return {
      tasks: await count('SELECT count(*) AS n FROM tasks WHERE id = ANY($1::uuid[])', [ids]),
      checklist: await count('SELECT count(*) AS n FROM checklist_items WHERE task_id = ANY($1::uuid[])', [ids]),
      comments: await count('SELECT count(*) AS n FROM comments WHERE task_id = ANY($1::uuid[])', [ids]),
      links: await count('SELECT count(*) AS n FROM task_links WHERE task_id = ANY($1::uuid[]) OR blocker_id = ANY($1::uuid[])', [ids]),
      activity: await count('SELECT count(*) AS n FROM activity WHERE task_id = ANY($1::uuid[])', [ids]),
    };
  }

  beforeAll(async () => {
    t = await startTestApp();
    sweeper = t.app.get(RetentionSweeper);
    owner = await registerPerson(t, 'Olive');
    projectId = (await createProject(owner.client, 'Retention', 'RET')).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('removes expired tasks with their checklist, comments, links and feed lines; keeps younger ones and everything else', async () => {
    const oldA = await busyTask('Old A');
    const oldB = await busyTask('Old B');
    const young = await busyTask('Young');
    const live = await busyTask('Live');
    const liveChild = await newTask('Live child');
    const liveParent = await newTask('Live parent');

    // Links every way: expired ↔ live, expired ↔ expired, expired ↔ young.
    const link = async (task: { id: string }, blocker: { id: string }) => expect((await owner.client.post(`/tasks/${task.id}/blockers`, { blockerId: blocker.id })).status).toBe(200);
    await link(live, oldA);
    await link(oldA, oldB);
    await link(young, oldB);
    await link(oldB, liveParent);
    await link(live, young);
    // Parts: an expired parent with a live part, and an expired part of a live parent.
    expect((await owner.client.put(`/tasks/${liveChild.id}/parent`, { parentId: oldB.id })).status).toBe(200);
    expect((await owner.client.put(`/tasks/${oldA.id}/parent`, { parentId: liveParent.id })).status).toBe(200);

    // Runs go with their task too (the runs table comes with the runs work).
    const hasRuns = (await t.sql.query(`SELECT to_regclass('runs') IS NOT NULL AS ok`)).rows[0].ok as boolean;
    if (hasRuns) {
      for (const task of [oldA, young]) {
        await t.sql.query(
          `INSERT INTO runs (id, project_id, task_id, status, started_at, updated_at, beat_at, ended_at) VALUES ($1, $2, $3, 'done', now(), now(), now(), now())`,
          [randomUUID(), projectId, task.id],
        );
      }
    }

    await remove(oldA, daysAgo(31));
    await remove(oldB, daysAgo(30.01));
    await remove(young, daysAgo(29.9));

    const expired = [oldA.id, oldB.id];
    const before = await leftOf(expired);
    expect(before.tasks).toBe(2);
    expect(before.checklist).toBe(4);
    expect(before.comments).toBe(2);
    expect(before.links).toBe(4);
    expect(before.activity).toBeGreaterThanOrEqual(2 * 5); // created, 2 checklist, comment, deleted, at least
    const youngBefore = await leftOf([young.id]);
    const liveBefore = await leftOf([live.id, liveChild.id, liveParent.id]);

    expect(await sweeper.sweep()).toBe(2);
    if (hasRuns) {
      expect(await count('SELECT count(*) AS n FROM runs WHERE task_id = $1', [oldA.id])).toBe(0);
      expect(await count('SELECT count(*) AS n FROM runs WHERE task_id = $1', [young.id])).toBe(1);
    }

    expect(await leftOf(expired)).toEqual({ tasks: 0, checklist: 0, comments: 0, links: 0, activity: 0 });
    // The young one keeps everything, its link to a live task included (its link to Old B went with Old B).
    expect(await leftOf([young.id])).toEqual({ ...youngBefore, links: youngBefore.links - 1 });
    expect(await leftOf([young.id])).toMatchObject({ tasks: 1, checklist: 2, comments: 1, links: 1 });
    // Live tasks keep their rows; only the links to the gone tasks went.
    expect(await leftOf([live.id, liveChild.id, liveParent.id])).toEqual({ ...liveBefore, links: 1 });
    expect((await t.sql.query('SELECT parent_id FROM tasks WHERE id = $1', [liveChild.id])).rows[0].parent_id).toBeNull();

    // The board reads cleanly afterwards.
    const board = await owner.client.get(`/projects/${projectId}/board`);
    expect(board.status).toBe(200);
    const byId = new Map<string, BoardTaskAnswer>(board.body.tasks.map((x) => [x.id, x]));
    expect(byId.has(oldA.id) || byId.has(oldB.id)).toBe(false);
    expect(byId.get(liveParent.id)!.parts).toBeNull();
    expect(byId.get(live.id)!.blockedBy).toEqual([]);
    const deleted = await owner.client.get(`/projects/${projectId}/deleted`);
    expect(deleted.body.deleted.map((d) => d.id)).toEqual([young.id]);

    // A second sweep finds nothing.
    expect(await sweeper.sweep()).toBe(0);
  });

  it('answers 404 to the restore of a purged task, and still restores a younger one', async () => {
    const old = await busyTask('Purged');
    const young = await busyTask('Kept');
    await remove(old, daysAgo(40));
    await remove(young, daysAgo(1));
    expect(await sweeper.sweep()).toBe(1);

    expect(await owner.client.post(`/tasks/${old.id}/restore`)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
    expect(await owner.client.get(`/tasks/${old.id}`)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
    expect(await owner.client.post(`/tasks/${young.id}/restore`)).toMatchObject({ status: 200, body: { ok: true } });
    const task = (await owner.client.get(`/tasks/${young.id}`)).body.task;
    expect(task).toMatchObject({ id: young.id, key: young.key, checklistTotal: 2, commentCount: 1 });
  });

  it('answers 404 to the restore of a task past its window that no sweep has removed yet', async () => {
    const task = await newTask('Late');
    await remove(task, daysAgo(31));
    expect(await owner.client.post(`/tasks/${task.id}/restore`)).toMatchObject({ status: 404, body: { error: 'Task not found.' } });
    expect(await count('SELECT count(*) AS n FROM tasks WHERE id = $1 AND deleted_at IS NOT NULL', [task.id])).toBe(1);
    expect(await sweeper.sweep()).toBe(1);
    expect(await count('SELECT count(*) AS n FROM tasks WHERE id = $1', [task.id])).toBe(0);
  });

  it('lets two sweeps run at once: both succeed and together remove each expired task once', async () => {
    const otherProject = (await createProject(owner.client, 'Swept', 'SWP')).id;
    for (let round = 0; round < 8; round++) {
      // Many expired tasks, straight into the tables, tangled up with each other and with young ones.
      const expired = 600;
      const base = (round + 1) * 10_000;
      await t.sql.query(
        `INSERT INTO tasks (id, project_id, number, title, position, deleted_at)
         SELECT gen_random_uuid(), $1, $2 + g, 'expired ' || g, 'a' || lpad(g::text, 5, '0'), now() - interval '31 days' - (g || ' seconds')::interval
           FROM generate_series(1, $3) g`,
        [otherProject, base, expired],
      );
      await t.sql.query(
        `INSERT INTO tasks (id, project_id, number, title, position, deleted_at)
         SELECT gen_random_uuid(), $1, $2 + 5000 + g, 'young ' || g, 'b' || lpad(($2 + g)::text, 6, '0'), now() - interval '29 days'
           FROM generate_series(1, 20) g`,
        [otherProject, base],
      );
      const inRoundOf = (alias: string) => `${alias}.number > ${base} AND ${alias}.number <= ${base + 6000}`;
      const inRound = `number > ${base} AND number <= ${base + 6000}`;
      // Each task waits on several close ones (so two sweeps holding different tasks share links),
      // the first twenty on a young one; every tenth is the parent of the nine after it.
      await t.sql.query(
        `INSERT INTO task_links (project_id, task_id, blocker_id)
         SELECT $1, a.id, b.id FROM tasks a JOIN tasks b ON b.project_id = a.project_id AND b.number IN (a.number + 1, a.number + 2, a.number + 3, a.number + 7, a.number + 13, a.number + 5000)
          WHERE a.project_id = $1 AND ${inRoundOf('a')}`,
        [otherProject],
      );
      await t.sql.query(
        `UPDATE tasks c SET parent_id = p.id FROM tasks p
          WHERE c.project_id = $1 AND p.project_id = $1 AND ${inRoundOf('c')}
            AND c.number % 10 <> 0 AND p.number = (c.number / 10) * 10`,
        [otherProject],
      );
      await t.sql.query(
        `INSERT INTO checklist_items (id, project_id, task_id, text, position)
         SELECT gen_random_uuid(), $1, id, 'x', 'a0' FROM tasks WHERE project_id = $1 AND ${inRound}`,
        [otherProject],
      );
      await t.sql.query(
        `INSERT INTO comments (id, project_id, task_id, author_id, body)
         SELECT gen_random_uuid(), $1, id, $2, 'x' FROM tasks WHERE project_id = $1 AND ${inRound}`,
        [otherProject, owner.user.id],
      );
      await t.sql.query(
        `INSERT INTO activity (id, project_id, task_id, actor_id, kind, data)
         SELECT gen_random_uuid(), $1, id, $2, 'deleted', '{"action":"deleted"}' FROM tasks WHERE project_id = $1 AND ${inRound}`,
        [otherProject, owner.user.id],
      );

      const youngOnly = `SELECT id FROM tasks WHERE project_id = $1 AND ${inRound} AND deleted_at > now() - interval '30 days'`;
      const youngLinks = await count(`SELECT count(*) AS n FROM task_links WHERE task_id IN (${youngOnly}) AND blocker_id IN (${youngOnly})`, [otherProject]);
      expect(youngLinks).toBe(19 + 18 + 17 + 13 + 7);

      const results = await Promise.allSettled([sweeper.sweep(), sweeper.sweep()]);
      const failures = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
      expect({ round, failures }).toEqual({ round, failures: [] });
      const removed = results.map((r) => (r as PromiseFulfilledResult<number>).value);
      expect({ round, total: removed[0] + removed[1] }).toEqual({ round, total: expired });

      const ids = (await t.sql.query(`SELECT id FROM tasks WHERE project_id = $1 AND ${inRound}`, [otherProject])).rows.map((r) => r.id);
      expect(ids).toHaveLength(20);
      expect(await count(`SELECT count(*) AS n FROM tasks WHERE project_id = $1 AND deleted_at < now() - interval '30 days'`, [otherProject])).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM activity WHERE project_id = $1 AND task_id IS NOT NULL AND task_id NOT IN (SELECT id FROM tasks)`, [otherProject])).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM tasks WHERE project_id = $1 AND parent_id IS NOT NULL AND parent_id NOT IN (SELECT id FROM tasks)`, [otherProject])).toBe(0);
      expect(await leftOf(ids)).toEqual({ tasks: 20, checklist: 20, comments: 20, links: youngLinks, activity: 20 });
    }
  }, 120_000);
});
