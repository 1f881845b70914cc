import { Injectable } from '@nestjs/common';
import { BoardExportPlan, BoardExportRepository } from '@board/imports';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';

/** The rows of `items` as a record set of the named columns: one parameter whatever their number. */
const rows = (items: readonly object[], columns: string): Sql => sql`jsonb_to_recordset(${JSON.stringify(items)}::jsonb) AS x(${raw(columns)})`;

/**
 * The writes of importing a project export in PostgreSQL: the project's own setup replaced, then
 * each kind of row in one statement (a record set from one JSON parameter), a fixed number of
 * statements whatever the number of tasks.
 */
@Injectable()
export class PgBoardExportRepository extends BoardExportRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async head(projectId: string): Promise<{ members: { id: string; email: string | null }[]; hasTasks: boolean } | null> {
    const row = await this.db.one<{ members: { id: string; email: string | null }[]; has_tasks: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM tasks t WHERE t.project_id = p.id) AS has_tasks,
             (SELECT COALESCE(json_agg(json_build_object('id', u.id, 'email', u.email)), '[]')
                FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = p.id) AS members
        FROM projects p WHERE p.id = ${projectId}`);
    return row ? { members: row.members, hasTasks: row.has_tasks } : null;
  }

  async write(projectId: string, plan: BoardExportPlan): Promise<void> {
    const { project } = plan;
    await this.db.exec(sql`DELETE FROM views WHERE project_id = ${projectId}`);
    await this.db.exec(sql`DELETE FROM options WHERE project_id = ${projectId}`);
    await this.db.exec(sql`DELETE FROM properties WHERE project_id = ${projectId}`);
    await this.db.exec(sql`UPDATE projects
        SET done_when = ${JSON.stringify(project.doneWhen)}::jsonb, releases = ${project.releases}, sprints = ${project.sprints},
            card_view = ${JSON.stringify(project.cardView)}::jsonb, rules_text = ${project.rulesText}, rules_updated_at = ${project.rulesUpdatedAt}::timestamptz,
            task_counter = ${plan.lastNumber}, task_count = ${plan.liveCount}
      WHERE id = ${projectId}`);
    await this.db.exec(sql`INSERT INTO properties (id, project_id, name, type, position, config)
      SELECT x.id, ${projectId}, x.name, x.type, x.position, COALESCE(x.config, '{}') FROM ${rows(plan.properties, 'id uuid, name text, type text, position text, config jsonb')}`);
    await this.db.exec(sql`INSERT INTO options (id, project_id, property_id, name, color, position, starts_on, target_on, note, shipped_at)
      SELECT x.id, ${projectId}, x."propertyId", x.name, x.color, x.position, x."startsOn", x."targetOn", x.note, x."shippedAt"
        FROM ${rows(plan.options, 'id uuid, "propertyId" uuid, name text, color text, position text, "startsOn" date, "targetOn" date, note text, "shippedAt" date')}`);
    await this.db.exec(sql`INSERT INTO views (id, project_id, name, kind, group_by_id, position, is_default, filters, sort, card_view)
      SELECT x.id, ${projectId}, x.name, x.kind, x."groupById", x.position, x."isDefault", x.filters, x.sort, x."cardView"
        FROM ${rows(plan.views, 'id uuid, name text, kind text, "groupById" uuid, position text, "isDefault" boolean, filters jsonb, sort jsonb, "cardView" jsonb')}`);
    // Parents after every task is in: a parent may come later in the export than its part.
    await this.db.exec(sql`INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at, archived_at, deleted_at)
      SELECT x.id, ${projectId}, x.number, x.title, x.description, x.position, x."values", x."createdBy", x."createdAt", x."updatedAt", x."archivedAt", x."deletedAt"
        FROM ${rows(plan.tasks, 'id uuid, number int, title text, description text, position text, "values" jsonb, "createdBy" uuid, "createdAt" timestamptz, "updatedAt" timestamptz, "archivedAt" timestamptz, "deletedAt" timestamptz')}`);
    await this.db.exec(sql`UPDATE tasks t SET parent_id = x."parentId"
        FROM ${rows(plan.tasks.filter((t) => t.parentId), 'id uuid, "parentId" uuid')}
       WHERE t.project_id = ${projectId} AND t.id = x.id`);
    await this.db.exec(sql`INSERT INTO task_links (project_id, task_id, blocker_id, created_at)
      SELECT ${projectId}, x."taskId", x."blockerId", clock_timestamp() FROM ${rows(plan.links, '"taskId" uuid, "blockerId" uuid')}`);
    await this.db.exec(sql`INSERT INTO ship_tasks (project_id, option_id, task_id, ship_id)
      SELECT ${projectId}, x."optionId", x."taskId", x."shipId" FROM ${rows(plan.shipped, '"taskId" uuid, "optionId" uuid, "shipId" uuid')}
      ON CONFLICT DO NOTHING`);
    await this.db.exec(sql`INSERT INTO checklist_items (id, project_id, task_id, text, done, position, created_at)
      SELECT x.id, ${projectId}, x."taskId", x.text, x.done, x.position, x."createdAt"
        FROM ${rows(plan.checklist, 'id uuid, "taskId" uuid, text text, done boolean, position text, "createdAt" timestamptz')}`);
    await this.db.exec(sql`INSERT INTO comments (id, project_id, task_id, author_id, body, created_at, edited_at)
      SELECT x.id, ${projectId}, x."taskId", x."authorId", x.body, x."createdAt", x."editedAt"
        FROM ${rows(plan.comments, 'id uuid, "taskId" uuid, "authorId" uuid, body text, "createdAt" timestamptz, "editedAt" timestamptz')}`);
    await this.db.exec(sql`INSERT INTO runs (id, project_id, task_id, agent_id, status, goal, step, steps, step_index, control, log, question, links, model,
                         input_tokens, output_tokens, cost_micros, started_at, updated_at, beat_at, ended_at)
      SELECT x.id, ${projectId}, x."taskId", x."agentId", x.status, x.goal, x.step, x.steps, x."stepIndex", NULL, x.log, x.question, x.links, x.model,
             x."inputTokens"::bigint, x."outputTokens"::bigint, x."costMicros"::bigint, x."startedAt", x."updatedAt", x."updatedAt", x."endedAt"
        FROM ${rows(plan.runs, 'id uuid, "taskId" uuid, "agentId" uuid, status text, goal text, step text, steps jsonb, "stepIndex" int, log jsonb, question jsonb, links jsonb, model text, "inputTokens" text, "outputTokens" text, "costMicros" text, "startedAt" timestamptz, "updatedAt" timestamptz, "endedAt" timestamptz')}`);
    await this.db.exec(sql`INSERT INTO usage_days (project_id, run_id, day, agent_id, input_tokens, output_tokens, cost_micros)
      SELECT ${projectId}, x."runId", x.day, x."agentId", x."inputTokens"::bigint, x."outputTokens"::bigint, x."costMicros"::bigint
        FROM ${rows(plan.usageDays, '"runId" uuid, day date, "agentId" uuid, "inputTokens" text, "outputTokens" text, "costMicros" text')}`);
    // The project's daily cost is the sum of its runs' days: kept beside them so a budget reads it at once.
    await this.db.exec(sql`INSERT INTO usage_project_days (project_id, day, cost_micros)
      SELECT ${projectId}, x.day, sum(x."costMicros"::bigint) FROM ${rows(plan.usageDays, 'day date, "costMicros" text')} GROUP BY x.day
      ON CONFLICT (project_id, day) DO UPDATE SET cost_micros = usage_project_days.cost_micros + EXCLUDED.cost_micros`);
    await this.db.exec(sql`INSERT INTO activity (id, project_id, task_id, actor_id, kind, data, created_at)
      SELECT x.id, ${projectId}, x."taskId", x."actorId", x.kind, x.data, x."createdAt"
        FROM ${rows(plan.history, 'id uuid, "taskId" uuid, "actorId" uuid, kind text, data jsonb, "createdAt" timestamptz')}`);
  }
}
