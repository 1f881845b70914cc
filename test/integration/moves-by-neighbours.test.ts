/**
 * Migration 1765001700000 makes a project's ranks unique (moves take no project lock any more).
 * Rows written before it with a repeated rank (straight into the table) are ranked afresh, in
 * the order the board showed them (rank, then id), in their project only; its down step lets
 * ranks repeat again, and up again ranks afresh.
 */
import { randomUUID } from 'node:crypto';
import { MovesByNeighbours1765001700000 } from '../../libs/persistence/src/migrations/1765001700000-moves-by-neighbours';
import { migrationStep } from '../support/database';
import { createTask, expectStatus } from '../support/fixtures';
import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

describe('the moves-by-neighbours migration', () => {
  let t: TestApp;
  let c: Client;
  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t, 'Mig')).client;
  });
  afterAll(() => t.close());

  const migrate = (step: 'down' | 'up') => migrationStep(t.databaseUrl, new MovesByNeighbours1765001700000(), step);
  const ranks = async (projectId: string) =>
    (await t.sql.query(`SELECT id, title, position FROM tasks WHERE project_id = $1 ORDER BY position COLLATE "C", id`, [projectId])).rows as { id: string; title: string; position: string }[];

  it('ranks afresh, in board order, only the projects holding a repeated rank; a project’s ranks are unique after', async () => {
    const twice = (await createProject(c, 'Twice', 'TWI')).id;
    const clean = (await createProject(c, 'Clean', 'CLN')).id;
    await createTask(c, clean, 'Kept');
    await migrate('down');
    // Rows as a write outside the service could leave them: ranks repeated, one of them deleted.
    const rows: [string, string, string, boolean][] = [
      ['b', 'a1', randomUUID(), false], ['a', 'a1', randomUUID(), true], ['c', 'a1', randomUUID(), false], ['first', 'Zz', randomUUID(), false], ['last', 'b01', randomUUID(), false],
    ];
    for (const [title, position, id, deleted] of rows) {
      await t.sql.query(`INSERT INTO tasks (id, project_id, number, title, position, deleted_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id, twice, rows.findIndex((r) => r[0] === title) + 1, title, position, deleted ? new Date() : null,
      ]);
    }
    const before = await ranks(twice);
    const cleanBefore = await ranks(clean);
    await migrate('up');

    const after = await ranks(twice);
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(new Set(after.map((r) => r.position)).size).toBe(5);
    expect(after.map((r) => r.position)).toEqual(['d0001', 'd0002', 'd0003', 'd0004', 'd0005']);
    expect(await ranks(clean)).toEqual(cleanBefore);
    await expect(t.sql.query(`UPDATE tasks SET position = 'd0001' WHERE project_id = $1 AND title = 'last'`, [twice])).rejects.toThrow(/tasks_rank/);

    // The service's moves find their functions again.
    // 'first' (rank Zz) leads the board; 'b' is one of the three that shared a1, in an order their
    // random ids decide, so the task moved is never the one right after 'b'.
    const at = after.findIndex((r) => r.title === 'b');
    expect(after[0].title).toBe('first');
    const moved = await expectStatus(c.post(`/tasks/${after[0].id}/move`, { afterId: after[at].id }), 200);
    expect(after[at].position < moved.position && moved.position < after[at + 1].position).toBe(true);
  });
});
