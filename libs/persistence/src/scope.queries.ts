import { Injectable } from '@nestjs/common';
import type { Role } from '@board/projects';
import { Database } from './database';

export type ResourceKind = 'task' | 'restorableTask' | 'property' | 'option' | 'view' | 'comment' | 'checklist' | 'run';

// A deleted task (and what hangs off it) is gone for every route but restore.
const SQL: Record<ResourceKind, string> = {
  task: `SELECT project_id FROM tasks WHERE id = $1 AND deleted_at IS NULL`,
  restorableTask: `SELECT project_id FROM tasks WHERE id = $1 AND (deleted_at IS NULL OR deleted_at > now() - interval '30 days')`,
  property: `SELECT project_id FROM properties WHERE id = $1`,
  option: `SELECT project_id FROM options WHERE id = $1`,
  view: `SELECT project_id FROM views WHERE id = $1`,
  comment: `SELECT c.project_id FROM comments c JOIN tasks t ON t.id = c.task_id AND t.project_id = c.project_id WHERE c.id = $1 AND t.deleted_at IS NULL`,
  run: `SELECT r.project_id FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id WHERE r.id = $1 AND t.deleted_at IS NULL`,
  checklist: `SELECT c.project_id FROM checklist_items c JOIN tasks t ON t.id = c.task_id AND t.project_id = c.project_id WHERE c.id = $1 AND t.deleted_at IS NULL`,
};

/** Which project a resource named in a path belongs to, for the project check of the guard. */
@Injectable()
export class ScopeQueries {
  constructor(private readonly db: Database) {}

  /** The resource's project and `userId`'s role there (null when not a member), in one query. */
  async resolve(kind: ResourceKind, id: string, userId: string): Promise<{ projectId: string; role: Role | null } | null> {
    const row = await this.db.one<{ project_id: string; role: Role | null }>(
      `SELECT s.project_id, m.role FROM (${SQL[kind]}) s LEFT JOIN members m ON m.project_id = s.project_id AND m.user_id = $2`,
      [id, userId],
      { prepare: true },
    );
    return row ? { projectId: row.project_id, role: row.role } : null;
  }
}
