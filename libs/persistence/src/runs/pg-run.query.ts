import { Injectable } from '@nestjs/common';
import { LOG_READ, runProgress } from '@board/runs';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { userJson } from '../accounts/users.table';
import { FullRunView, OpenRunView, RunQuery, RunRead } from './run.query';

const AGENT = userJson('u');
/** A run as answers show it, with its agent (`users u`, left joined). */
/** What a run produced and cost: on every run read, past-run rows included (bigint counts come out as JSON numbers). */
const PRODUCED = raw(`r.links, json_build_object('inputTokens', r.input_tokens, 'outputTokens', r.output_tokens, 'costMicros', r.cost_micros, 'model', r.model) AS usage`);
const RUN_VIEW_COLUMNS = sql`r.id, r.task_id AS "taskId", r.status, r.goal, r.step, r.control, r.started_at AS "startedAt", r.updated_at AS "updatedAt",
  r.report_due_at AS "reportDueAt", r.beat_at AS "beatAt", r.ended_at AS "endedAt", r.steps, r.log, ${AGENT} AS agent, r.question, ${PRODUCED}`;
const WITH_AGENT = raw('runs r LEFT JOIN users u ON u.id = r.agent_id');

/** The run reads in SQL, one query each. */
@Injectable()
export class PgRunQuery extends RunQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** Open runs of the project with their card fields (no plan, no log). */
  async openRuns(projectId: string): Promise<OpenRunView[]> {
    const rows = await this.db.query<RunRead>(
      sql`SELECT ${RUN_VIEW_COLUMNS} FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id
         LEFT JOIN users u ON u.id = r.agent_id
        WHERE r.project_id = ${projectId} AND r.ended_at IS NULL AND t.deleted_at IS NULL
        ORDER BY r.started_at, r.id`,
    );
    return rows.map(({ steps, log, ...run }) => ({ ...run, ...runProgress({ steps, log }) }));
  }

  /** One run in full: the plan and the last 40 log lines, oldest first. */
  async full(projectId: string, runId: string): Promise<FullRunView | null> {
    const row = await this.db.one<RunRead>(sql`SELECT ${RUN_VIEW_COLUMNS} FROM ${WITH_AGENT} WHERE r.project_id = ${projectId} AND r.id = ${runId}`);
    return row ? fullRun(row) : null;
  }

  async openOnTask(projectId: string, taskId: string): Promise<FullRunView | null> {
    const row = await this.db.one<RunRead>(
      sql`SELECT ${RUN_VIEW_COLUMNS} FROM ${WITH_AGENT} WHERE r.project_id = ${projectId} AND r.task_id = ${taskId} AND r.ended_at IS NULL`,
    );
    return row ? fullRun(row) : null;
  }

  /** Closed runs of a task, newest start first, optionally before a run; one more than asked tells whether there are more. */
  async past(projectId: string, taskId: string, limit: number, before?: { startedAt: Date; id: string }): Promise<{ runs: Record<string, unknown>[]; more: boolean }> {
    const startedBefore = before?.startedAt ?? null;
    const rows = await this.db.query(
      sql`SELECT r.id, r.goal, r.step, r.status, r.started_at AS "startedAt", r.ended_at AS "endedAt", ${AGENT} AS agent, ${PRODUCED}
         FROM ${WITH_AGENT}
        WHERE r.project_id = ${projectId} AND r.task_id = ${taskId} AND r.ended_at IS NOT NULL
          AND (${startedBefore}::timestamptz IS NULL OR (r.started_at, r.id) < (${startedBefore}::timestamptz, ${before?.id ?? null}::uuid))
        ORDER BY r.started_at DESC, r.id DESC LIMIT ${limit + 1}`,
    );
    return { runs: rows.slice(0, limit), more: rows.length > limit };
  }

  async startOf(projectId: string, taskId: string, runId: string): Promise<{ startedAt: Date; id: string } | null> {
    return this.db.one(sql`SELECT started_at AS "startedAt", id FROM runs WHERE project_id = ${projectId} AND task_id = ${taskId} AND id = ${runId}`);
  }
}

function fullRun({ steps, log, ...run }: RunRead): FullRunView {
  return { ...run, ...runProgress({ steps, log }), steps, log: log.slice(-LOG_READ) };
}
