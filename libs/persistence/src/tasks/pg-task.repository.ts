import { Injectable } from '@nestjs/common';
import { rankBetween } from '@board/kernel';
import { Link, MAX_PROJECT_TASKS, NewTask, Task, TaskRepository } from '@board/tasks';
import { Database } from '../database';
import { advisoryXactLock, retentionSweepLockKey } from '../locks.sql';
import { raw, sql } from '../sql';
import { TASK_COLUMNS, TaskRow, toTask } from './tasks.table';
import { taskLinkColumns, TaskLinkRow, toLink } from './task-links.table';

const FOR_UPDATE = raw(' FOR UPDATE');
const NO_LOCK = raw('');
const ASCENDING = raw('ASC');
const DESCENDING = raw('DESC');

/** Tasks in PostgreSQL. Every statement filters by project_id, so the schema can be sharded by project. */
@Injectable()
export class PgTaskRepository extends TaskRepository {
  constructor(private readonly db: Database) {
    super();
  }

  /** A task of the project (deleted ones too); `lock` holds its row until the transaction ends. */
  async find(projectId: string, id: string, lock = false): Promise<Task | null> {
    const row = await this.db.one<TaskRow>(sql`SELECT ${TASK_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND id = ${id}${lock ? FOR_UPDATE : NO_LOCK}`, {
      prepare: true,
    });
    return row ? toTask(row) : null;
  }

  /** Compare and write title and description in one statement; answers what was there before. */
  async editText(projectId: string, id: string, edit: { title?: string; description?: string }, now: Date): Promise<{ title: string; description: string; written: boolean }> {
    const title = edit.title ?? null;
    const description = edit.description ?? null;
    // Writes when something changes; whether the edit clashed is the domain's (isTextClash) from
    // the texts answered here, and a clash rolls the transaction back.
    return this.db.single<{ title: string; description: string; written: boolean }>(sql`
      WITH old AS (SELECT title, description FROM tasks WHERE project_id = ${projectId} AND id = ${id} FOR UPDATE),
           upd AS (
             UPDATE tasks SET title = COALESCE(${title}::text, title), description = COALESCE(${description}::text, description), updated_at = ${now}
              WHERE project_id = ${projectId} AND id = ${id}
                AND ((${title}::text IS NOT NULL AND title <> ${title}::text) OR (${description}::text IS NOT NULL AND description <> ${description}::text))
              RETURNING 1)
      SELECT old.title, old.description, EXISTS (SELECT 1 FROM upd) AS written FROM old`);
  }

  /** Live or archived tasks of the project among `ids`, held until the transaction ends (locked in id order, so two bulk writes cannot deadlock). */
  async findManyForUpdate(projectId: string, ids: string[]): Promise<Task[]> {
    const rows = await this.db.query<TaskRow>(
      sql`SELECT ${TASK_COLUMNS} FROM tasks WHERE project_id = ${projectId} AND id = ANY(${ids}::uuid[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
    );
    return rows.map(toTask);
  }

  /**
   * The next task number, and the task counted in (migration 1765000200000): one update of the
   * project row, which two creates take in turns, so at the limit only one of them gets a number.
   */
  async nextNumber(projectId: string): Promise<number | null> {
    const row = await this.db.one<{ n: string }>(
      sql`UPDATE projects SET task_counter = task_counter + 1, task_count = task_count + 1
           WHERE id = ${projectId} AND task_count < ${MAX_PROJECT_TASKS} RETURNING task_counter AS n`,
      { prepare: true },
    );
    return row ? Number(row.n) : null;
  }

  async taskCount(projectId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(sql`SELECT task_count AS n FROM projects WHERE id = ${projectId}`, { prepare: true });
    return row?.n ?? 0;
  }

  /**
   * A rank past the first or the last of the project's tasks (deleted ones keep their rank for a
   * restore, so they count too). Call under the project lock, which the ends of the order belong to.
   */
  async edgeRank(projectId: string, edge: 'top' | 'end'): Promise<string> {
    const row = await this.db.one<{ position: string }>(
      sql`SELECT position FROM tasks WHERE project_id = ${projectId} ORDER BY position COLLATE "C" ${edge === 'end' ? DESCENDING : ASCENDING} LIMIT 1`,
      { prepare: true },
    );
    const outermost = row?.position ?? null;
    return edge === 'end' ? rankBetween(outermost, null) : rankBetween(null, outermost);
  }

  async insert(t: NewTask): Promise<void> {
    await this.db.exec(
      sql`INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at)
       VALUES (${t.id}, ${t.projectId}, ${t.number}, ${t.title}, ${t.description}, ${t.position}, ${JSON.stringify(t.values)}, ${t.createdBy}, ${t.now}, ${t.now})`,
      { prepare: true },
    );
  }

  /** Writes the aggregate's state back; `touch` stamps updated_at. */
  save(task: Task, now: Date, touch = true): Promise<void> {
    return this.saveMany(task.snapshot.projectId, [task], now, touch);
  }

  /** `save` for many tasks of one project, as one statement. */
  async saveMany(projectId: string, tasks: readonly Task[], now: Date, touch: boolean): Promise<void> {
    if (tasks.length === 0) return;
    const rows = tasks.map((task) => task.snapshot);
    if (rows.some((t) => t.projectId !== projectId)) throw new Error('saveMany takes the tasks of one project');
    await this.db.exec(
      sql`UPDATE tasks t SET position = u.position, "values" = u.vals, parent_id = u.parent_id, archived_at = u.archived_at, deleted_at = u.deleted_at,
              updated_at = CASE WHEN ${touch}::boolean THEN ${now}::timestamptz ELSE t.updated_at END
         FROM unnest(${rows.map((t) => t.id)}::uuid[], ${rows.map((t) => t.position)}::text[], ${rows.map((t) => JSON.stringify(t.values))}::jsonb[],
                     ${rows.map((t) => t.parentId)}::uuid[], ${rows.map((t) => t.archivedAt)}::timestamptz[], ${rows.map((t) => t.deletedAt)}::timestamptz[])
              AS u(id, position, vals, parent_id, archived_at, deleted_at)
        WHERE t.project_id = ${projectId} AND t.id = u.id`,
      { prepare: true },
    );
    // A task route's credential check answers live tasks only: a task (maybe) just binned must
    // not stay answered. Deleted tasks are seldom saved otherwise, so other saves keep the cache.
    if (rows.some((t) => t.deletedAt !== null)) this.db.credentialsChanged();
  }

  /** Every blocker link of the project (the cycle check reads them under the project lock). */
  async links(projectId: string): Promise<Link[]> {
    const rows = await this.db.query<TaskLinkRow>(sql`SELECT ${taskLinkColumns('l')} FROM task_links l WHERE l.project_id = ${projectId}`);
    return rows.map(toLink);
  }

  async addLink(projectId: string, taskId: string, blockerId: string): Promise<boolean> {
    const res = await this.db.exec(sql`INSERT INTO task_links (project_id, task_id, blocker_id) VALUES (${projectId}, ${taskId}, ${blockerId}) ON CONFLICT DO NOTHING`);
    return res.count > 0;
  }

  async removeLink(projectId: string, taskId: string, blockerId: string): Promise<boolean> {
    const res = await this.db.exec(sql`DELETE FROM task_links WHERE project_id = ${projectId} AND task_id = ${taskId} AND blocker_id = ${blockerId}`);
    return res.count > 0;
  }

  async holdWithParts(projectId: string, id: string): Promise<void> {
    await this.db.exec(sql`SELECT 1 FROM tasks WHERE project_id = ${projectId} AND (id = ${id} OR parent_id = ${id}) ORDER BY id FOR UPDATE`);
  }

  /** Lets go of the parts of `parentId` that have parts of their own (restore keeps parts one level deep). */
  async releasePartsWithParts(projectId: string, parentId: string): Promise<void> {
    await this.db.exec(sql`UPDATE tasks c SET parent_id = NULL
        WHERE c.project_id = ${projectId} AND c.parent_id = ${parentId}
          AND EXISTS (SELECT 1 FROM tasks g WHERE g.project_id = c.project_id AND g.parent_id = c.id AND g.deleted_at IS NULL)`);
  }

  /** Does the task have parts that are not deleted? */
  async hasParts(projectId: string, id: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM tasks WHERE project_id = ${projectId} AND parent_id = ${id} AND deleted_at IS NULL LIMIT 1`)) !== null;
  }

  /** Live tasks of a column: holding `value` for the property, or nothing when value is null. */
  async idsInColumn(projectId: string, propertyId: string, value: unknown): Promise<string[]> {
    const held = sql`"values" -> ${propertyId}::text`;
    const holds =
      value === null
        ? sql`(${held} IS NULL OR ${held} IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`
        : sql`(${held} = ${JSON.stringify(value)}::jsonb OR (${held}) @> jsonb_build_array(${JSON.stringify(value)}::jsonb))`;
    const rows = await this.db.query<{ id: string }>(sql`SELECT id FROM tasks WHERE project_id = ${projectId} AND deleted_at IS NULL AND archived_at IS NULL AND ${holds}`);
    return rows.map((r) => r.id);
  }

  /**
   * Removes one batch of deleted tasks past their window for good, with everything they own, in
   * its own transaction under the cluster-wide sweep lock: two purges at once would lock shared
   * link rows in opposite orders. Answers how many tasks went (0 when none is left).
   */
  async purgeDeletedBatch(before: Date, limit = 500): Promise<number> {
    return this.db.transaction(async () => {
      await this.db.exec(advisoryXactLock(retentionSweepLockKey));
      return this.purgeDeleted(before, limit);
    });
  }

  private async purgeDeleted(before: Date, limit: number): Promise<number> {
    const res = await this.db.exec(sql`WITH doomed AS (
         SELECT id, project_id FROM tasks WHERE deleted_at IS NOT NULL AND deleted_at < ${before}
          ORDER BY deleted_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
       gone_activity AS (
         DELETE FROM activity a USING doomed d WHERE a.project_id = d.project_id AND a.task_id = d.id),
       orphans AS (
         UPDATE tasks c SET parent_id = NULL FROM doomed d WHERE c.project_id = d.project_id AND c.parent_id = d.id AND c.id NOT IN (SELECT id FROM doomed))
       DELETE FROM tasks t USING doomed d WHERE t.project_id = d.project_id AND t.id = d.id`);
    return res.count;
  }
}
