import type { Role } from '@board/projects';
import { raw, Sql, sql } from './sql';

export type ResourceKind = 'task' | 'restorableTask' | 'property' | 'option' | 'view' | 'comment' | 'checklist' | 'run' | 'attachment';

/** What a project gate checks: the project named in the path, or the project of a resource named there. */
export type ScopeTarget = { kind: ResourceKind | 'project'; id: string };

/** The target's project (null when there is none) and the caller's role there (null when not a member). */
export interface ResolvedScope {
  projectId: string | null;
  role: Role | null;
}

// A deleted task (and what hangs off it) is gone for every route but restore.
const SQL: Record<ScopeTarget['kind'], (id: string) => Sql> = {
  project: (id) => sql`SELECT id AS project_id FROM projects WHERE id = ${id}`,
  task: (id) => sql`SELECT project_id FROM tasks WHERE id = ${id} AND deleted_at IS NULL`,
  restorableTask: (id) => sql`SELECT project_id FROM tasks WHERE id = ${id} AND (deleted_at IS NULL OR deleted_at > now() - interval '30 days')`,
  property: (id) => sql`SELECT project_id FROM properties WHERE id = ${id}`,
  option: (id) => sql`SELECT project_id FROM options WHERE id = ${id}`,
  view: (id) => sql`SELECT project_id FROM views WHERE id = ${id}`,
  comment: (id) =>
    sql`SELECT c.project_id FROM comments c JOIN tasks t ON t.id = c.task_id AND t.project_id = c.project_id WHERE c.id = ${id} AND t.deleted_at IS NULL`,
  run: (id) => sql`SELECT r.project_id FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id WHERE r.id = ${id} AND t.deleted_at IS NULL`,
  checklist: (id) =>
    sql`SELECT c.project_id FROM checklist_items c JOIN tasks t ON t.id = c.task_id AND t.project_id = c.project_id WHERE c.id = ${id} AND t.deleted_at IS NULL`,
  attachment: (id) =>
    sql`SELECT a.project_id FROM attachments a JOIN tasks t ON t.id = a.task_id AND t.project_id = a.project_id WHERE a.id = ${id} AND t.deleted_at IS NULL`,
};

/**
 * SQL joining a target's project and `user`'s membership onto a query (`FROM … <this>`): adds the
 * columns `scope_project_id` and `scope_role` (`SCOPE_COLUMNS`).
 */
export function scopeJoin(target: ScopeTarget, userColumn: Sql): Sql {
  return sql`LEFT JOIN (${SQL[target.kind](target.id)}) scope ON true
          LEFT JOIN members scope_m ON scope_m.project_id = scope.project_id AND scope_m.user_id = ${userColumn}`;
}

export const SCOPE_COLUMNS = raw('scope.project_id AS scope_project_id, scope_m.role AS scope_role');
