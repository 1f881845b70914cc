import { Database } from '../database';

/** Marks a task changed: a checklist or comment write moves its `updated_at`. */
export async function touchTask(db: Database, projectId: string, taskId: string, now: Date): Promise<void> {
  await db.exec(`UPDATE tasks SET updated_at = $3 WHERE id = $1 AND project_id = $2`, [taskId, projectId, now]);
}
