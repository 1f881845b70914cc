import { Injectable } from '@nestjs/common';
import { StatementWrite } from '@board/kernel';
import { LOG_READ, Run, runProgress } from '@board/runs';
import { StatementShape } from '../activity/pg-statement-write';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';
import { RUN_COLUMNS, runSetList, RunWriteColumn, runWrites } from './runs.table';
import { userJson } from '../accounts/users.table';
import { FullRunView, OpenRunView, RunQuery, RunRead } from './run.query';

const AGENT = userJson('u');
/** A run as answers show it, with its agent (`users u`, left joined). */
/** What a run produced and cost: on every run read, past-run rows included (bigint counts come out as JSON numbers). */
const PRODUCED = raw(`r.links, json_build_object('inputTokens', r.input_tokens, 'outputTokens', r.output_tokens, 'costMicros', r.cost_micros, 'model', r.model) AS usage`);
const runViewColumns = (log: Sql) => sql`r.id, r.task_id AS "taskId", r.status, r.goal, r.step, r.control, r.started_at AS "startedAt", r.updated_at AS "updatedAt",
  r.report_due_at AS "reportDueAt", r.beat_at AS "beatAt", r.ended_at AS "endedAt", r.steps, ${log}, ${AGENT} AS agent, r.question, ${PRODUCED}`;
const RUN_VIEW_COLUMNS = runViewColumns(raw('r.log'));
/**
 * The same with only the log lines a full run shows (the last LOG_READ; the newest is the card's
 * `lastLog`), so a run's kept log (up to LOG_KEPT lines) is not sent and parsed to be cut in `fullRun`.
 */
const RUN_VIEW_COLUMNS_LAST_LOG = runViewColumns(
  raw(`(SELECT COALESCE(jsonb_agg(x.e ORDER BY x.i), '[]'::jsonb) FROM jsonb_array_elements(r.log) WITH ORDINALITY AS x(e, i)
         WHERE x.i > jsonb_array_length(r.log) - ${LOG_READ}) AS log`),
);
const WITH_AGENT = raw('runs r LEFT JOIN users u ON u.id = r.agent_id');

type SaveSlot = 'projectId' | 'id' | 'version' | RunWriteColumn;
/** The select-list columns the unit of work adds to a one-statement write (notices, notifications): not the run's. */
type Added = { rang?: unknown; woke?: unknown; told?: unknown; mailed?: unknown };

/**
 * A report as one statement (bench/README.md, issue 29): the run's columns as every save writes
 * them (`runWrites`), only while the row is at the version read (`xmin`), and the run read back as `full`
 * reads it, from the row the UPDATE returned: one row always, the run's columns null when it did
 * not land. The unit of work adds the events, gated on `landed`.
 */
const SAVE_READING_FULL = new StatementShape<SaveSlot, RunRead & Added, FullRunView | null>(
  (slot) => ({
    ctes: sql`upd AS (
        UPDATE runs SET ${runSetList(slot)}
         WHERE project_id = ${slot('projectId')} AND id = ${slot('id')} AND xmin = ${slot('version')}::xid
        RETURNING ${RUN_COLUMNS}),
      landed AS (SELECT id FROM upd)`,
    columns: RUN_VIEW_COLUMNS_LAST_LOG,
    from: sql`(SELECT 1) one LEFT JOIN (upd r LEFT JOIN users u ON u.id = r.agent_id) ON true`,
  }),
  // The run's columns only, in their order (as `full` answers them).
  ({ rang: _rang, woke: _woke, told: _told, mailed: _mailed, ...row }) => (row.id === null ? null : fullRun(row as RunRead)),
);

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

  saveIfUnchangedReadingFull(run: Run, version: string): StatementWrite<FullRunView | null> {
    const r = run.snapshot;
    return SAVE_READING_FULL.with({ projectId: r.projectId, id: r.id, version, ...runWrites(run) });
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
