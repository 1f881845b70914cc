import { Injectable } from '@nestjs/common';
import { Database } from '../database';

export interface ProjectView {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role: string;
  doneWhen: { propertyId: string; optionIds: string[] } | null;
  releases: boolean;
  sprints: boolean;
  createdAt: Date;
}

export interface MemberView {
  id: string;
  name: string;
  email: string | null;
  color: string;
  emoji: string | null;
  role: string;
  kind: 'human' | 'agent';
}

const PROJECT_COLUMNS = `p.id, p.name, p.key, p.owner_id AS "ownerId", m.role, p.done_when AS "doneWhen",
  p.releases, p.sprints, p.created_at AS "createdAt"`;

/** Reads that only show data: one query each, no aggregate. */
@Injectable()
export class ProjectQuery {
  constructor(private readonly db: Database) {}

  /** The caller's projects in the caller's own order, with their live task counts. */
  async listFor(userId: string, countTasks: boolean): Promise<(ProjectView & { taskCount: number })[]> {
    const count = countTasks
      ? `(SELECT count(*)::int FROM tasks t WHERE t.project_id = p.id AND t.deleted_at IS NULL AND t.archived_at IS NULL)`
      : '0';
    return this.db.query(
      `SELECT ${PROJECT_COLUMNS}, ${count} AS "taskCount"
         FROM members m JOIN projects p ON p.id = m.project_id
        WHERE m.user_id = $1
        ORDER BY m.position COLLATE "C", p.created_at`,
      [userId],
    );
  }

  async projectFor(projectId: string, userId: string): Promise<ProjectView | null> {
    return this.db.one(
      `SELECT ${PROJECT_COLUMNS} FROM members m JOIN projects p ON p.id = m.project_id WHERE m.project_id = $1 AND m.user_id = $2`,
      [projectId, userId],
    );
  }

  async member(projectId: string, userId: string): Promise<MemberView | null> {
    return this.db.one(
      `SELECT u.id, u.name, u.email, u.color, u.emoji, m.role, u.kind
         FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = $1 AND m.user_id = $2`,
      [projectId, userId],
    );
  }

  async tokens(projectId: string): Promise<{ id: string; agentId: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }[]> {
    return this.db.query(
      `SELECT id, agent_id AS "agentId", prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt"
         FROM agent_tokens WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    );
  }

  async rules(projectId: string): Promise<{ text: string; updatedAt: Date | null } | null> {
    return this.db.one(`SELECT rules_text AS text, rules_updated_at AS "updatedAt" FROM projects WHERE id = $1`, [projectId]);
  }

  /** Live tasks of the project whose open run waits for a person (archived and deleted tasks excluded). */
  async waitingRuns(projectId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id
        WHERE r.project_id = $1 AND r.ended_at IS NULL AND r.status = 'waiting' AND t.deleted_at IS NULL AND t.archived_at IS NULL`,
      [projectId],
    );
    return row?.n ?? 0;
  }
}
