import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { LEASE_MS, Run, RunProps, RunRepository } from '@board/runs';
import { Database, pgErrorCode } from '../database';

interface RunRow {
  id: string;
  project_id: string;
  task_id: string;
  agent_id: string | null;
  status: RunProps['status'];
  goal: string;
  step: string;
  steps: RunProps['steps'];
  step_index: number | null;
  control: RunProps['control'];
  log: RunProps['log'];
  started_at: Date;
  updated_at: Date;
  report_due_at: Date | null;
  beat_at: Date;
  ended_at: Date | null;
}

export const toRun = (r: RunRow): Run =>
  Run.restore({
    id: r.id,
    projectId: r.project_id,
    taskId: r.task_id,
    agentId: r.agent_id,
    status: r.status,
    goal: r.goal,
    step: r.step,
    steps: r.steps ?? [],
    stepIndex: r.step_index,
    control: r.control,
    log: r.log ?? [],
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    reportDueAt: r.report_due_at,
    beatAt: r.beat_at,
    endedAt: r.ended_at,
  });

const RUN_COLUMNS =
  'id, project_id, task_id, agent_id, status, goal, step, steps, step_index, control, log, started_at, updated_at, report_due_at, beat_at, ended_at';

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
      // partial unique index runs_one_open and be refused.
      const row = await this.db.one<{ closed: string | null }>(
        `WITH closed AS (
           UPDATE runs SET status = 'done', ended_at = $14,
                  control = CASE WHEN control IN ('stop', 'pause') THEN NULL ELSE control END
            WHERE project_id = $2 AND task_id = $3 AND ended_at IS NULL AND status = 'handed_over'
            RETURNING id),
         opened AS (
           INSERT INTO runs (id, project_id, task_id, agent_id, status, goal, step, steps, step_index, control, log,
                             started_at, updated_at, report_due_at, beat_at, ended_at)
           SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::text, $7::text, $8::jsonb, $9::integer, $10::text, $11::jsonb,
                  $12::timestamptz, $13::timestamptz, NULL, $13::timestamptz, NULL
             FROM (SELECT count(*) FROM closed) AS after_close
           RETURNING id)
         SELECT (SELECT id FROM closed) AS closed FROM opened`,
        [r.id, r.projectId, r.taskId, r.agentId, r.status, r.goal, r.step, JSON.stringify(r.steps), r.stepIndex, r.control,
          JSON.stringify(r.log), r.startedAt, r.updatedAt, r.startedAt],
      );
      return { handedOverClosed: row?.closed ?? null };
    } catch (error) {
      if (pgErrorCode(error).constraint === 'runs_one_open') fail('run.already_open');
      throw error;
    }
  }

  async find(projectId: string, id: string, lock = false): Promise<Run | null> {
    const row = await this.db.one<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE project_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [projectId, id], {
      prepare: true,
    });
    return row ? toRun(row) : null;
  }

  async openOnTask(projectId: string, taskId: string, lock = false): Promise<Run | null> {
    const row = await this.db.one<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE project_id = $1 AND task_id = $2 AND ended_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
      [projectId, taskId],
      { prepare: true },
    );
    return row ? toRun(row) : null;
  }

  async save(run: Run): Promise<void> {
    const r = run.snapshot;
    await this.db.exec(
      `UPDATE runs SET status = $3, goal = $4, step = $5, steps = $6, step_index = $7, control = $8, log = $9,
              updated_at = $10, report_due_at = $11, beat_at = $12, ended_at = $13
        WHERE project_id = $1 AND id = $2`,
      [r.projectId, r.id, r.status, r.goal, r.step, JSON.stringify(r.steps), r.stepIndex, r.control, JSON.stringify(r.log),
        r.updatedAt, r.reportDueAt, r.beatAt, r.endedAt],
      { prepare: true },
    );
  }

  /** A beat writes one timestamp and nothing else. */
  async saveBeat(run: Run): Promise<void> {
    const r = run.snapshot;
    await this.db.exec('UPDATE runs SET beat_at = $3 WHERE project_id = $1 AND id = $2', [r.projectId, r.id, r.beatAt]);
  }

  async anyOverdue(now: Date, projectId: string | null): Promise<boolean> {
    const row = await this.db.one(
      `SELECT 1 FROM runs
        WHERE ended_at IS NULL AND status IN ('running', 'paused')
          AND COALESCE(report_due_at, updated_at + $2::interval) < $1
          AND ($3::uuid IS NULL OR project_id = $3)
        LIMIT 1`,
      [now, `${LEASE_MS / 1000} seconds`, projectId],
    );
    return row !== null;
  }

  async overdue(now: Date, projectId: string | null, limit: number): Promise<Run[]> {
    const rows = await this.db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs
        WHERE ended_at IS NULL AND status IN ('running', 'paused')
          AND COALESCE(report_due_at, updated_at + $2::interval) < $1
          AND ($3::uuid IS NULL OR project_id = $3)
        ORDER BY updated_at LIMIT $4
        FOR UPDATE SKIP LOCKED`,
      [now, `${LEASE_MS / 1000} seconds`, projectId, limit],
    );
    return rows.map(toRun);
  }
}
