import { Injectable } from '@nestjs/common';
import { LOG_READ, runProgress, RunProps } from '@board/runs';
import { Database } from '../database';

const AGENT = `CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name, 'color', u.color, 'emoji', u.emoji) END AS agent`;
const COLUMNS = `r.id, r.task_id AS "taskId", r.status, r.goal, r.step, r.control, r.started_at AS "startedAt", r.updated_at AS "updatedAt",
  r.report_due_at AS "reportDueAt", r.beat_at AS "beatAt", r.ended_at AS "endedAt", r.steps, r.log, ${AGENT}`;

type RunRead = Pick<RunProps, 'steps' | 'log'> & Record<string, unknown>;

/** Run read models: the board's open runs, a full run, past runs by page. */
@Injectable()
export class RunQuery {
  constructor(private readonly db: Database) {}

  /** Open runs of the project with their card fields (no plan, no log). */
  async openRuns(projectId: string) {
    const rows = await this.db.query<RunRead>(
      `SELECT ${COLUMNS} FROM runs r JOIN tasks t ON t.id = r.task_id AND t.project_id = r.project_id
         LEFT JOIN users u ON u.id = r.agent_id
        WHERE r.project_id = $1 AND r.ended_at IS NULL AND t.deleted_at IS NULL
        ORDER BY r.started_at, r.id`,
      [projectId],
    );
    return rows.map(({ steps, log, ...run }) => ({ ...run, ...runProgress({ steps, log }) }));
  }

  /** One run in full: the plan and the last 40 log lines, oldest first. */
  async full(projectId: string, runId: string) {
    const row = await this.db.one<RunRead>(`SELECT ${COLUMNS} FROM runs r LEFT JOIN users u ON u.id = r.agent_id WHERE r.project_id = $1 AND r.id = $2`, [
      projectId,
      runId,
    ]);
    return row ? fullRun(row) : null;
  }

  async openOnTask(projectId: string, taskId: string) {
    const row = await this.db.one<RunRead>(
      `SELECT ${COLUMNS} FROM runs r LEFT JOIN users u ON u.id = r.agent_id WHERE r.project_id = $1 AND r.task_id = $2 AND r.ended_at IS NULL`,
      [projectId, taskId],
    );
    return row ? fullRun(row) : null;
  }

  /** Closed runs of a task, newest start first, optionally before a run; one more than asked tells whether there are more. */
  async past(projectId: string, taskId: string, limit: number, before?: { startedAt: Date; id: string }) {
    const rows = await this.db.query(
      `SELECT r.id, r.goal, r.step, r.status, r.started_at AS "startedAt", r.ended_at AS "endedAt", ${AGENT}
         FROM runs r LEFT JOIN users u ON u.id = r.agent_id
        WHERE r.project_id = $1 AND r.task_id = $2 AND r.ended_at IS NOT NULL
          AND ($3::timestamptz IS NULL OR (r.started_at, r.id) < ($3, $4::uuid))
        ORDER BY r.started_at DESC, r.id DESC LIMIT $5`,
      [projectId, taskId, before?.startedAt ?? null, before?.id ?? null, limit + 1],
    );
    return { runs: rows.slice(0, limit), more: rows.length > limit };
  }

  async startOf(projectId: string, taskId: string, runId: string): Promise<{ startedAt: Date; id: string } | null> {
    return this.db.one(`SELECT started_at AS "startedAt", id FROM runs WHERE project_id = $1 AND task_id = $2 AND id = $3`, [projectId, taskId, runId]);
  }
}

function fullRun({ steps, log, ...run }: RunRead) {
  return { ...run, ...runProgress({ steps, log }), steps, log: log.slice(-LOG_READ) };
}
