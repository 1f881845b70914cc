import { Injectable } from '@nestjs/common';
import { ChecklistItem, ChecklistPatch, ChecklistRepository } from '@board/tasks';
import { Database } from '../database';
import { touchTask } from './touch-task';

interface ItemRow {
  id: string;
  project_id: string;
  task_id: string;
  text: string;
  done: boolean;
  position: string;
}

const toItem = (r: ItemRow): ChecklistItem => ({
  id: r.id,
  projectId: r.project_id,
  taskId: r.task_id,
  text: r.text,
  done: r.done,
  position: r.position,
});

// An item hangs off a live task of the same project; a deleted task takes its items out of sight.
const LIVE_TASK = `EXISTS (SELECT 1 FROM tasks t WHERE t.id = c.task_id AND t.project_id = c.project_id AND t.deleted_at IS NULL)`;

@Injectable()
export class PgChecklistRepository extends ChecklistRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const row = await this.db.one<ItemRow>(
      `SELECT c.id, c.project_id, c.task_id, c.text, c.done, c.position
         FROM checklist_items c WHERE c.id = $1 AND c.project_id = $2 AND ${LIVE_TASK}`,
      [itemId, projectId],
    );
    return row ? toItem(row) : null;
  }

  async lockTask(projectId: string, taskId: string): Promise<boolean> {
    // NO KEY UPDATE, as an UPDATE of the row takes: it leaves foreign-key checks (KEY SHARE) free.
    const row = await this.db.one(`SELECT 1 FROM tasks WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL FOR NO KEY UPDATE`, [projectId, taskId]);
    return row !== null;
  }

  async lastPosition(projectId: string, taskId: string): Promise<string | null> {
    const row = await this.db.one<{ position: string }>(
      `SELECT position FROM checklist_items WHERE project_id = $1 AND task_id = $2 ORDER BY position COLLATE "C" DESC LIMIT 1`,
      [projectId, taskId],
    );
    return row?.position ?? null;
  }

  async insert(item: ChecklistItem): Promise<boolean> {
    const { count } = await this.db.exec(
      `INSERT INTO checklist_items (id, project_id, task_id, text, done, position)
       SELECT $1, t.project_id, t.id, $4, $5, $6 FROM tasks t
        WHERE t.id = $3 AND t.project_id = $2 AND t.deleted_at IS NULL`,
      [item.id, item.projectId, item.taskId, item.text, item.done, item.position],
    );
    return count === 1;
  }

  async write(projectId: string, itemId: string, patch: ChecklistPatch): Promise<{ before: ChecklistItem; after: ChecklistItem } | null> {
    // One statement compares and writes: the old row is read under a row lock in the same
    // statement, so no other write can slip between the check and the update.
    const row = await this.db.one<ItemRow & { old_text: string; old_done: boolean }>(
      `UPDATE checklist_items c
          SET text = COALESCE($3::text, c.text), done = COALESCE($4::boolean, c.done)
         FROM (SELECT id, text, done FROM checklist_items WHERE id = $1 AND project_id = $2 FOR UPDATE) old
        WHERE c.id = old.id AND c.project_id = $2 AND ${LIVE_TASK}
          AND ($5::text IS NULL OR c.text = $5::text OR c.text = $3::text)
          AND (c.text IS DISTINCT FROM COALESCE($3::text, c.text) OR c.done IS DISTINCT FROM COALESCE($4::boolean, c.done))
      RETURNING c.id, c.project_id, c.task_id, c.text, c.done, c.position, old.text AS old_text, old.done AS old_done`,
      [itemId, projectId, patch.text ?? null, patch.done ?? null, patch.baseText ?? null],
    );
    if (!row) return null;
    const after = toItem(row);
    return { before: { ...after, text: row.old_text, done: row.old_done }, after };
  }

  async remove(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const row = await this.db.one<ItemRow>(
      `DELETE FROM checklist_items c WHERE c.id = $1 AND c.project_id = $2 AND ${LIVE_TASK}
       RETURNING c.id, c.project_id, c.task_id, c.text, c.done, c.position`,
      [itemId, projectId],
    );
    return row ? toItem(row) : null;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
