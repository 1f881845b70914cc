import { Database } from '../database';
import { raw, Sql, sql } from '../sql';

/** Marks a task changed: a checklist, comment or file write moves its `updated_at`. */
export async function touchTask(db: Database, projectId: string, taskId: string, now: Date): Promise<void> {
  await db.exec(sql`UPDATE tasks SET updated_at = ${now} WHERE id = ${taskId} AND project_id = ${projectId}`);
}

/**
 * The condition that the row aliased `alias` hangs off a live task of its project: a deleted task
 * takes its comments, checklist items and files out of sight.
 */
export const liveTaskOf = (alias: 'a' | 'c'): Sql =>
  raw(`EXISTS (SELECT 1 FROM tasks t WHERE t.id = ${alias}.task_id AND t.project_id = ${alias}.project_id AND t.deleted_at IS NULL)`);
