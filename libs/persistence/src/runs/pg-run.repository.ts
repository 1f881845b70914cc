import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { LEASE_MS, Run, RunRepository } from '@board/runs';
import { Database, pgErrorCode } from '../database';
import { raw, sql } from '../sql';
import { RUN_COLUMNS, RunRow, runSetList, runWrites, toRun } from './runs.table';
import { advisoryTake } from '../queue/work-queue.sql';

/** How long a run that stopped reporting keeps its lease, as an interval. */
const LEASE = `${LEASE_MS / 1000} seconds`;
const FOR_UPDATE = raw(' FOR UPDATE');
const NO_LOCK = raw('');

@Injectable()
export class PgRunRepository extends RunRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async open(run: Run): Promise<{ handedOverClosed: string | null }> {
    const r = run.snapshot;
    try {
      // The hand-over run is closed in the same statement the new run opens in, so no moment
      // sees two open runs or none. The INSERT reads `closed` (count(*) drains it) so the UPDATE
      // runs to completion first: PostgreSQL runs data-modifying CTEs in the order the main query
      // pulls them, and an INSERT that ran first would meet the still-open hand-over row in the
      // partial unique index runs_one_open and be refused. `taken` holds the task's queue lock
      // (blocking) before the INSERT, so a `runs/next` that holds it skips this task, and one that
      // takes it after this commit sees this run when it checks again (work-queue.sql.ts).
      const row = await this.db.one<{ closed: string | null }>(
        sql`WITH closed AS (
           UPDATE runs SET status = 'done', ended_at = ${r.startedAt},
                  control = CASE WHEN control IN ('stop', 'pause') THEN NULL ELSE control END
            WHERE project_id = ${r.projectId} AND task_id = ${r.taskId} AND ended_at IS NULL AND status = 'handed_over'
            RETURNING id),
         taken AS (SELECT ${advisoryTake(r.taskId)}),
         opened AS (
           INSERT INTO runs (${RUN_COLUMNS})
           SELECT ${r.id}::uuid, ${r.projectId}::uuid, ${r.taskId}::uuid, ${r.agentId}::uuid, ${r.status}::text, ${r.goal}::text, ${r.step}::text,
                  ${JSON.stringify(r.steps)}::jsonb, ${r.stepIndex}::integer, ${r.control}::text, ${JSON.stringify(r.log)}::jsonb,
                  ${r.startedAt}::timestamptz, ${r.updatedAt}::timestamptz, NULL, ${r.updatedAt}::timestamptz, NULL,
                  NULL, '[]'::jsonb, 0, 0, 0, NULL
             FROM (SELECT count(*) FROM closed) AS after_close, taken
           RETURNING id)
         SELECT (SELECT id FROM closed) AS closed FROM opened`,
      );
      return { handedOverClosed: row?.closed ?? null };
    } catch (error) {
      if (pgErrorCode(error).constraint === 'runs_one_open') fail('run.already_open');
      throw error;
    }
  }

  async find(projectId: string, id: string, lock = false): Promise<Run | null> {
    const row = await this.db.one<RunRow>(
      sql`SELECT ${RUN_COLUMNS} FROM runs WHERE project_id = ${projectId} AND id = ${id}${lock ? FOR_UPDATE : NO_LOCK}`,
      { prepare: true },
    );
    return row ? toRun(row) : null;
  }

  /** `xmin` is the row version: every committed UPDATE of the row gives it a new one. */
  async findVersioned(projectId: string, id: string): Promise<{ run: Run; version: string } | null> {
    const row = await this.db.one<RunRow & { version: string }>(
      sql`SELECT xmin::text AS version, ${RUN_COLUMNS} FROM runs WHERE project_id = ${projectId} AND id = ${id}`,
      { prepare: true },
    );
    return row ? { run: toRun(row), version: row.version } : null;
  }

  async openOnTask(projectId: string, taskId: string, lock = false): Promise<Run | null> {
    const row = await this.db.one<RunRow>(
      sql`SELECT ${RUN_COLUMNS} FROM runs WHERE project_id = ${projectId} AND task_id = ${taskId} AND ended_at IS NULL${lock ? FOR_UPDATE : NO_LOCK}`,
      { prepare: true },
    );
    return row ? toRun(row) : null;
  }

  async save(run: Run): Promise<void> {
    const r = run.snapshot;
    const writes = runWrites(run);
    await this.db.exec(sql`UPDATE runs SET ${runSetList((c) => writes[c])} WHERE project_id = ${r.projectId} AND id = ${r.id}`, { prepare: true });
  }

  /** A beat writes one timestamp and nothing else. */
  async saveBeat(run: Run): Promise<void> {
    const r = run.snapshot;
    await this.db.exec(sql`UPDATE runs SET beat_at = ${r.beatAt} WHERE project_id = ${r.projectId} AND id = ${r.id}`);
  }

  async runningUnworded(projectId: string): Promise<Run[]> {
    const rows = await this.db.query<RunRow>(
      sql`SELECT ${RUN_COLUMNS} FROM runs WHERE project_id = ${projectId} AND ended_at IS NULL AND status = 'running' AND control IS NULL
        ORDER BY started_at, id FOR UPDATE`,
    );
    return rows.map(toRun);
  }

  async anyOverdue(now: Date, projectId: string | null): Promise<boolean> {
    const row = await this.db.one(sql`SELECT 1 FROM runs WHERE ${overdueAt(now, projectId)} LIMIT 1`);
    return row !== null;
  }

  async overdue(now: Date, projectId: string | null, limit: number): Promise<Run[]> {
    const rows = await this.db.query<RunRow>(
      sql`SELECT ${RUN_COLUMNS} FROM runs WHERE ${overdueAt(now, projectId)}
        ORDER BY updated_at LIMIT ${limit}
        FOR UPDATE SKIP LOCKED`,
    );
    return rows.map(toRun);
  }
}

/** Open running or paused runs whose report is due before `now` (or, with no due time, whose lease ran out), of one project or all. */
const overdueAt = (now: Date, projectId: string | null) =>
  sql`ended_at IS NULL AND status IN ('running', 'paused')
          AND COALESCE(report_due_at, updated_at + ${LEASE}::interval) < ${now}
          AND (${projectId}::uuid IS NULL OR project_id = ${projectId})`;
