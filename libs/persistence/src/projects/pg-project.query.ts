import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { AGENT_TOKEN_VIEW_COLUMNS, AgentTokenView } from './agent-tokens.table';
import { MEMBER_VIEW_COLUMNS } from './members.table';
import { MemberView, ProjectQuery, ProjectView } from './project.query';

/** A project as its member sees it (`projects p` joined to the member's `members m`). */
const PROJECT_VIEW_COLUMNS = raw(`p.id, p.name, p.key, p.owner_id AS "ownerId", m.role, p.done_when AS "doneWhen",
  p.releases, p.sprints, p.created_at AS "createdAt", p.daily_budget_micros::float8 AS "dailyBudgetMicros"`);
const LIVE_TASK_COUNT = raw(`(SELECT count(*)::int FROM tasks t WHERE t.project_id = p.id AND t.deleted_at IS NULL AND t.archived_at IS NULL)`);
const NO_COUNT = raw('0');

/** The project reads in SQL: one query each. */
@Injectable()
export class PgProjectQuery extends ProjectQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** The caller's projects in the caller's own order, with their live task counts. */
  async listFor(userId: string, countTasks: boolean): Promise<(ProjectView & { taskCount: number })[]> {
    return this.db.query(
      sql`SELECT ${PROJECT_VIEW_COLUMNS}, ${countTasks ? LIVE_TASK_COUNT : NO_COUNT} AS "taskCount"
         FROM members m JOIN projects p ON p.id = m.project_id
        WHERE m.user_id = ${userId}
        ORDER BY m.position COLLATE "C", p.created_at`,
    );
  }

  async projectFor(projectId: string, userId: string): Promise<ProjectView | null> {
    return this.db.one(
      sql`SELECT ${PROJECT_VIEW_COLUMNS} FROM members m JOIN projects p ON p.id = m.project_id WHERE m.project_id = ${projectId} AND m.user_id = ${userId}`,
    );
  }

  async member(projectId: string, userId: string): Promise<MemberView | null> {
    return this.db.one(
      sql`SELECT ${MEMBER_VIEW_COLUMNS}
         FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ${projectId} AND m.user_id = ${userId}`,
    );
  }

  async tokens(projectId: string): Promise<AgentTokenView[]> {
    return this.db.query(
      sql`SELECT ${AGENT_TOKEN_VIEW_COLUMNS}
         FROM agent_tokens WHERE project_id = ${projectId} ORDER BY created_at, id`,
    );
  }

  async rules(projectId: string): Promise<{ text: string; updatedAt: Date | null } | null> {
    return this.db.one(sql`SELECT rules_text AS text, rules_updated_at AS "updatedAt" FROM projects WHERE id = ${projectId}`);
  }

  /** Live tasks of the project whose open run waits for a person (archived and deleted tasks excluded). */
  async waitingRuns(projectId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id
        WHERE r.project_id = ${projectId} AND r.ended_at IS NULL AND r.status = 'waiting' AND t.deleted_at IS NULL AND t.archived_at IS NULL`,
    );
    return row?.n ?? 0;
  }
}
