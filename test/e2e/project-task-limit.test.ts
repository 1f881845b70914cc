/**
 * A project holds at most 50,000 tasks, live and archived; those in the bin do not count
 * (decisions.md › Fair use). A create (either path), an import or a restore past it answers 400
 * and writes nothing; an import preview says so before anything is written.
 */
import { createTask, expectError, expectStatus, seedTasks } from '../support/fixtures';
import { tasksByNumber } from '../support/builders-d';
import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';
import { trelloExport } from '../support/trello';
import { TaskRepository } from '@board/tasks';

const FULL = 'A project holds at most 50,000 tasks.';
const LIMIT = 50_000;

describe('a project holds at most 50,000 tasks', () => {
  let t: TestApp;
  let c: Client;

  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t, 'Big')).client;
  });
  afterAll(() => t.close());

  const q = async (text: string, params: unknown[] = []) => (await t.sql.query(text, params)).rows;

  /**
   * What a refused write must leave as it was. Storage itself: every row a write could leave behind
   * (bin, feed lines, sources, properties) and the stored counter and count, of 50,000 tasks.
   */
  async function snapshot(projectId: string) {
    const [row] = await q(
      `SELECT (SELECT count(*)::int FROM tasks WHERE project_id = $1) AS tasks,
              (SELECT count(*)::int FROM tasks WHERE project_id = $1 AND deleted_at IS NULL) AS held,
              (SELECT count(*)::int FROM tasks WHERE project_id = $1 AND deleted_at IS NOT NULL) AS binned,
              (SELECT count(*)::int FROM activity WHERE project_id = $1) AS lines,
              (SELECT count(*)::int FROM task_sources WHERE project_id = $1) AS sources,
              (SELECT count(*)::int FROM properties WHERE project_id = $1) AS properties,
              p.task_counter, p.task_count
         FROM projects p WHERE p.id = $1`,
      [projectId],
    );
    return row as { tasks: number; held: number; binned: number; lines: number; task_counter: number; task_count: number };
  }

  /**
   * A project holding `count` tasks. Set up straight in SQL (seedTasks): 50,000 creates through
   * the API would take minutes; what is under test are the writes that come after.
   */
  async function projectWith(key: string, count: number) {
    const p = await createProject(c, key, key);
    await seedTasks(t, p.id, count - (await snapshot(p.id)).held);
    expect((await snapshot(p.id)).held).toBe(count);
    return p.id;
  }

  describe('creates', () => {
    let projectId: string;
    beforeAll(async () => {
      projectId = await projectWith('CRT', LIMIT - 1);
    });

    it('lets exactly one of three racing creates (both create paths) take the last place', async () => {
      const anchor = (await createTask(c, projectId, 'Anchor')).id; // the 50,000th
      await expectStatus(c.delete(`/tasks/${anchor}`), 200); // back to 49,999, the anchor in the bin
      const [live] = await tasksByNumber(c, projectId, 1);
      const answers = await Promise.all([
        c.post(`/projects/${projectId}/tasks`, { title: 'End' }),
        c.post(`/projects/${projectId}/tasks`, { title: 'Top', atTop: true }),
        c.post(`/projects/${projectId}/tasks`, { title: 'After', afterId: live }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400]);
      for (const refused of answers.filter((a) => a.status === 400)) expectError(refused, 400, FULL);
      const after = await snapshot(projectId);
      expect(after.held).toBe(LIMIT);
      expect(after.task_count).toBe(LIMIT);
    });

    it('refuses every create at the limit and writes nothing: no task, no number, no feed line', async () => {
      const [live] = await tasksByNumber(c, projectId, 1);
      const before = await snapshot(projectId);
      expectError(await c.post(`/projects/${projectId}/tasks`, { title: 'One too many' }), 400, FULL);
      expectError(await c.post(`/projects/${projectId}/tasks`, { title: 'One too many', atTop: true }), 400, FULL);
      expectError(await c.post(`/projects/${projectId}/tasks`, { title: 'One too many', afterId: live }), 400, FULL);
      expect(await snapshot(projectId)).toEqual(before);
    });

    it('counts archived tasks: a bulk archive at the limit frees no place', async () => {
      const ids = await tasksByNumber(c, projectId, 5);
      expect(await expectStatus(c.post(`/projects/${projectId}/archive`, { taskIds: ids }), 200)).toEqual({ archived: 5 });
      expectError(await c.post(`/projects/${projectId}/tasks`, { title: 'Still full' }), 400, FULL);
      // Back from the archive is no new task: it needs no room.
      await expectStatus(c.delete(`/tasks/${ids[0]}/archive`), 200);
      expect((await snapshot(projectId)).task_count).toBe(LIMIT);
    });

    it('does not count the bin: a delete makes room for one create, and the restore is then refused', async () => {
      const [gone] = await tasksByNumber(c, projectId, 1, 'desc');
      await expectStatus(c.delete(`/tasks/${gone}`), 200);
      expect((await snapshot(projectId)).task_count).toBe(LIMIT - 1);
      await createTask(c, projectId, 'In its place');
      const before = await snapshot(projectId);
      expectError(await c.post(`/tasks/${gone}/restore`), 400, FULL);
      expect(await snapshot(projectId)).toEqual(before);
      expect((await expectStatus(c.get(`/projects/${projectId}/deleted`), 200)).deleted.map((x) => x.id)).toContain(gone);
    });
  });

  describe('restore', () => {
    it('refuses to restore a parent with parts past the limit, leaving its parts as they were', async () => {
      const projectId = (await createProject(c, 'Restore', 'RST')).id;
      const parent = await createTask(c, projectId, 'Parent');
      const part = await createTask(c, projectId, 'Part');
      const grandchild = await createTask(c, projectId, 'Grandchild');
      await expectStatus(c.put(`/tasks/${part.id}/parent`, { parentId: parent.id }), 200);
      await expectStatus(c.delete(`/tasks/${parent.id}`), 200);
      // With its parent in the bin the part may take parts of its own; a restore would let go of them.
      await expectStatus(c.put(`/tasks/${grandchild.id}/parent`, { parentId: part.id }), 200);
      await seedTasks(t, projectId, LIMIT - (await snapshot(projectId)).held);

      const before = await snapshot(projectId);
      expectError(await c.post(`/tasks/${parent.id}/restore`), 400, FULL);
      expect(await snapshot(projectId)).toEqual(before);
      expect((await expectStatus(c.get(`/tasks/${grandchild.id}`), 200)).task.parent!.id).toBe(part.id);

      // One task to the bin makes the room; then the restore goes as ever.
      const [other] = await tasksByNumber(c, projectId, 1, 'desc'); // the last seeded
      await expectStatus(c.delete(`/tasks/${other}`), 200);
      await expectStatus(c.post(`/tasks/${parent.id}/restore`), 200);
      expect((await expectStatus(c.get(`/tasks/${grandchild.id}`), 200)).task.parent!.id).toBe(part.id);
      expect((await expectStatus(c.get(`/tasks/${part.id}`), 200)).task.parent).toBeNull();
      expect((await snapshot(projectId)).task_count).toBe(LIMIT);
    });
  });

  describe('import', () => {
    const cards = 10;
    const exported = trelloExport({ cards, seed: 5 });

    it('refuses the preview and the import of an export that would pass the limit, writing nothing', async () => {
      const projectId = await projectWith('IMF', LIMIT - cards + 1);
      const before = await snapshot(projectId);
      expectError(await c.post(`/projects/${projectId}/import/preview`, exported), 400, FULL);
      expectError(await c.post(`/projects/${projectId}/import`, exported), 400, FULL);
      expect(await snapshot(projectId)).toEqual(before);
    });

    it('takes an export that fills the project exactly, and refuses the next one at the preview', async () => {
      const projectId = await projectWith('IMO', LIMIT - cards);
      const { preview } = await expectStatus(c.post(`/projects/${projectId}/import/preview`, exported), 200);
      expect(preview.tasks + preview.archived).toBe(cards);
      expect(await expectStatus(c.post(`/projects/${projectId}/import`, exported), 200)).toEqual({ imported: cards, skipped: [] });
      expect((await snapshot(projectId)).task_count).toBe(LIMIT);
      // The same export again brings nothing new: it needs no room.
      expect(await expectStatus(c.post(`/projects/${projectId}/import`, exported), 200)).toMatchObject({ imported: 0 });
      expectError(await c.post(`/projects/${projectId}/import/preview`, trelloExport({ cards: 1, seed: 6 })), 400, FULL);
    });
  });

  it('keeps the count equal to the tasks held through every kind of write', async () => {
    const projectId = (await createProject(c, 'Count', 'CNT')).id;
    // Storage itself: the stored count must equal the rows held.
    const held = async () => {
      const [row] = await q(
        `SELECT p.task_count, (SELECT count(*)::int FROM tasks WHERE project_id = p.id AND deleted_at IS NULL) AS real FROM projects p WHERE p.id = $1`,
        [projectId],
      );
      expect(row.task_count).toBe(row.real);
      return row.real as number;
    };
    const a = await createTask(c, projectId, 'End');
    const b = (await expectStatus(c.post(`/projects/${projectId}/tasks`, { title: 'Top', atTop: true }), 201)).task;
    const d = (await expectStatus(c.post(`/projects/${projectId}/tasks`, { title: 'After', afterId: a.id }), 201)).task;
    expect(await held()).toBe(3);
    await expectStatus(c.post(`/tasks/${a.id}/archive`), 200);
    expect(await held()).toBe(3);
    await expectStatus(c.delete(`/tasks/${b.id}`), 200);
    expect(await held()).toBe(2);
    await expectStatus(c.post(`/tasks/${b.id}/restore`), 200);
    await expectStatus(c.post(`/tasks/${b.id}/restore`), 200); // again: nothing to bring back
    expect(await held()).toBe(3);
    await expectStatus(c.post(`/projects/${projectId}/import`, trelloExport({ cards: 4, seed: 9 })), 200);
    expect(await held()).toBe(7);
    // An archived task deleted, then purged for good with the bin: the count moved at the delete only.
    await expectStatus(c.delete(`/tasks/${a.id}`), 200);
    await expectStatus(c.delete(`/tasks/${d.id}`), 200);
    expect(await held()).toBe(5);
    await t.app.get(TaskRepository).purgeDeletedBatch(new Date(Date.now() + 60_000));
    // Storage itself: the purge removed the rows, not only the bin's view of them.
    expect((await q(`SELECT count(*)::int AS n FROM tasks WHERE project_id = $1`, [projectId]))[0].n).toBe(5);
    expect(await held()).toBe(5);
  });
});
