import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityKind, ActivityLine, ActivityRecorder } from '@board/kernel';
import { Database } from '../database';
import { deliveriesCte, LINES_CTE } from './feed.sql';

export const WEBHOOK_CHANNEL = 'board_webhooks';

/**
 * Writes feed lines inside the caller's transaction, and with them (same statement) one delivery
 * row per matching webhook: both commit or neither. Called by the unit of work only
 * (`PgUnitOfWork`), with the events a write declared.
 */
@Injectable()
export class PgActivityRecorder extends ActivityRecorder {
  constructor(private readonly db: Database) {
    super();
  }

  record(line: ActivityLine): Promise<void> {
    return this.recordMany([line]);
  }

  /** The lines in one statement, with their deliveries; `created_at` keeps their order. */
  override async recordMany(lines: readonly ActivityLine[]): Promise<void> {
    if (lines.length === 0) return;
    const projectId = oneProject(lines);
    const row = await this.db.one<{ n: number }>(
      `WITH ${LINES_CTE},
       ${deliveriesCte('$1', 'NULL')}
       SELECT count(*)::int AS n FROM ins`,
      lineParams(projectId, lines),
      { prepare: true },
    );
    if (row!.n > 0) await wakeWorkers(this.db, projectId);
  }

  /**
   * The lines in one statement, and one delivery per enabled webhook that listens to one of
   * `kinds`: the first such kind, about the project (task null), stamped like the last line.
   */
  async recordRingingOnce(lines: readonly ActivityLine[], kinds: readonly ActivityKind[]): Promise<void> {
    if (lines.length === 0) return;
    const projectId = oneProject(lines);
    const row = await this.db.one<{ n: number }>(
      `WITH ${LINES_CTE},
       ${deliveriesCte('$1', 'NULL', { ringOnceKinds: '$7' })}
       SELECT count(*)::int AS n FROM ins`,
      [...lineParams(projectId, lines), kinds],
    );
    if (row!.n > 0) await wakeWorkers(this.db, projectId);
  }
}

function oneProject(lines: readonly ActivityLine[]): string {
  const projectId = lines[0].projectId;
  if (lines.some((l) => l.projectId !== projectId)) throw new Error('recordMany takes the lines of one project');
  return projectId;
}

/** Parameters $1…$6 of `LINES_CTE`. */
function lineParams(projectId: string, lines: readonly ActivityLine[]): unknown[] {
  return [
    projectId,
    // Ids ascending in line order: lines stamped in the same millisecond still read in order (feed order is created_at to the millisecond, then id).
    lines.map(() => randomUUID()).sort(),
    lines.map((l) => l.taskId),
    lines.map((l) => l.actorId),
    lines.map((l) => l.kind),
    lines.map((l) => JSON.stringify(l.data)),
  ];
}

/** One delivery of `kind` for a single webhook, outside any feed line (the test route). */
export async function enqueueDeliveries(
  db: Database,
  input: { projectId: string; kind: string; taskId: string | null; at: Date; webhookId: string },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH line AS (SELECT $4::timestamptz AS created_at, $2::text AS kind, $3::uuid AS task_id), ${deliveriesCte('$1', '$5')} SELECT id FROM ins`,
    [input.projectId, input.kind, input.taskId, input.at, input.webhookId],
  );
  if (rows.length > 0) await wakeWorkers(db, input.projectId);
  return rows.map((r) => r.id);
}

/** Wakes the delivery workers at commit, so the first try goes out at once. */
function wakeWorkers(db: Database, projectId: string): Promise<void> {
  return db.notify(WEBHOOK_CHANNEL, projectId);
}
