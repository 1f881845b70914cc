/**
 * Migration 1765000200000 gives each project the count of the tasks it holds (live and archived,
 * not those in the bin), for the 50,000 limit. Rows written before it are counted by the
 * migration itself; its down step puts the earlier create function back, and up again counts
 * anew.
 */
import { randomUUID } from 'node:crypto';
import { ProjectTaskCount1765000200000 } from '../../libs/persistence/src/migrations/1765000200000-project-task-count';
import { migrationStep } from '../support/database';
import { createTask, expectStatus } from '../support/fixtures';
import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

describe('the project task count migration', () => {
  let t: TestApp;
  let c: Client;
  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t, 'Mig')).client;
  });
  afterAll(() => t.close());

  it('counts the tasks held when it runs, and down and up again leave creates working', async () => {
    const projectId = (await createProject(c, 'Old', 'OLD')).id;
    const other = (await createProject(c, 'Other', 'OTH')).id;
    // Rows as an older version left them: written straight, with no count kept.
    for (const [project, n, archived, deleted] of [[projectId, 1, false, false], [projectId, 2, true, false], [projectId, 3, false, true], [other, 1, false, false]] as const) {
      await t.sql.query(`INSERT INTO tasks (id, project_id, number, title, position, archived_at, deleted_at) VALUES ($1, $2, $3, 'Old', $4, $5, $6)`, [
        randomUUID(), project, n, `a${n}`, archived ? new Date() : null, deleted ? new Date() : null,
      ]);
    }
    await t.sql.query(`UPDATE projects SET task_counter = 3 WHERE id = $1`, [projectId]);
    await t.sql.query(`UPDATE projects SET task_counter = 1 WHERE id = $1`, [other]);
    // One create before: its statement is prepared on a connection of the pool.
    expect((await createTask(c, projectId, 'Before')).number).toBe(4);

    const migration = new ProjectTaskCount1765000200000();
    await migrationStep(t.databaseUrl, migration, 'down');
    await migrationStep(t.databaseUrl, migration, 'up');
    const counts = async () =>
      Object.fromEntries((await t.sql.query(`SELECT id, task_count FROM projects WHERE id = ANY($1::uuid[])`, [[projectId, other]])).rows.map((r) => [r.id, r.task_count]));
    expect(await counts()).toEqual({ [projectId]: 3, [other]: 1 });

    // The service's prepared create statement finds the new function again.
    const created = await createTask(c, projectId, 'New');
    expect(created.number).toBe(5);
    expect(await counts()).toEqual({ [projectId]: 4, [other]: 1 });
    await expectStatus(c.delete(`/tasks/${created.id}`), 200);
    expect(await counts()).toEqual({ [projectId]: 3, [other]: 1 });
  });
});
