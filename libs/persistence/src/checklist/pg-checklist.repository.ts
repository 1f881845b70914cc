import { Injectable } from '@nestjs/common';
import { ChecklistItem, ChecklistPatch, ChecklistRepository } from '@board/tasks';
import { Database } from '../database';
import { sql } from '../sql';
import { CHECKLIST_ITEM_COLUMNS, ChecklistItemRow, toChecklistItem } from './checklist-items.table';
import { liveTaskOf, touchTask } from '../tasks/touch-task';

const LIVE_TASK = liveTaskOf('c');

@Injectable()
export class PgChecklistRepository extends ChecklistRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const row = await this.db.one<ChecklistItemRow>(
      sql`SELECT ${CHECKLIST_ITEM_COLUMNS} FROM checklist_items c WHERE c.id = ${itemId} AND c.project_id = ${projectId} AND ${LIVE_TASK}`,
    );
    return row ? toChecklistItem(row) : null;
  }

  async lockTask(projectId: string, taskId: string): Promise<boolean> {
    // NO KEY UPDATE, as an UPDATE of the row takes: it leaves foreign-key checks (KEY SHARE) free.
    const row = await this.db.one(sql`SELECT 1 FROM tasks WHERE project_id = ${projectId} AND id = ${taskId} AND deleted_at IS NULL FOR NO KEY UPDATE`);
    return row !== null;
  }

  async lastPosition(projectId: string, taskId: string): Promise<string | null> {
    const row = await this.db.one<{ position: string }>(
      sql`SELECT position FROM checklist_items WHERE project_id = ${projectId} AND task_id = ${taskId} ORDER BY position COLLATE "C" DESC LIMIT 1`,
    );
    return row?.position ?? null;
  }

  async insert(item: ChecklistItem): Promise<boolean> {
    const { count } = await this.db.exec(
      sql`INSERT INTO checklist_items (id, project_id, task_id, text, done, position)
       SELECT ${item.id}, t.project_id, t.id, ${item.text}, ${item.done}, ${item.position} FROM tasks t
        WHERE t.id = ${item.taskId} AND t.project_id = ${item.projectId} AND t.deleted_at IS NULL`,
    );
    return count === 1;
  }

  async write(projectId: string, itemId: string, patch: ChecklistPatch): Promise<{ before: ChecklistItem; after: ChecklistItem } | null> {
    const text = patch.text ?? null;
    const done = patch.done ?? null;
    const baseText = patch.baseText ?? null;
    // One statement compares and writes: the old row is read under a row lock in the same
    // statement, so no other write can slip between the check and the update.
    const row = await this.db.one<ChecklistItemRow & { old_text: string; old_done: boolean }>(
      sql`UPDATE checklist_items c
          SET text = COALESCE(${text}::text, c.text), done = COALESCE(${done}::boolean, c.done)
         FROM (SELECT id, text, done FROM checklist_items WHERE id = ${itemId} AND project_id = ${projectId} FOR UPDATE) old
        WHERE c.id = old.id AND c.project_id = ${projectId} AND ${LIVE_TASK}
          AND (${baseText}::text IS NULL OR c.text = ${baseText}::text OR c.text = ${text}::text)
          AND (c.text IS DISTINCT FROM COALESCE(${text}::text, c.text) OR c.done IS DISTINCT FROM COALESCE(${done}::boolean, c.done))
      RETURNING ${CHECKLIST_ITEM_COLUMNS}, old.text AS old_text, old.done AS old_done`,
    );
    if (!row) return null;
    const after = toChecklistItem(row);
    return { before: { ...after, text: row.old_text, done: row.old_done }, after };
  }

  async remove(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const row = await this.db.one<ChecklistItemRow>(
      sql`DELETE FROM checklist_items c WHERE c.id = ${itemId} AND c.project_id = ${projectId} AND ${LIVE_TASK}
       RETURNING ${CHECKLIST_ITEM_COLUMNS}`,
    );
    return row ? toChecklistItem(row) : null;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
