import { Injectable } from '@nestjs/common';
import { ActivityKind, ActivityLine } from '@board/kernel';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { deliveriesCte, LINES_PROJECT, linesCte } from './feed.sql';

export const WEBHOOK_CHANNEL = 'board_webhooks';

const NO_WEBHOOK = raw('NULL');
/** Built once: a feed write (every write records) only adds its lines' values. */
const DELIVERIES = deliveriesCte(LINES_PROJECT, NO_WEBHOOK);

/**
 * Writes feed lines inside the caller's transaction, and with them (same statement) one delivery
 * row per matching webhook: both commit or neither. Called by the unit of work only
 * (`PgUnitOfWork`), with the events a write declared: an adapter of the unit of work, not a port
 * of its own (nothing outside the unit of work may record).
 */
@Injectable()
export class PgActivityRecorder {
  constructor(private readonly db: Database) {}

  record(line: ActivityLine): Promise<void> {
    return this.recordMany([line]);
  }

  /** The lines in one statement, with their deliveries; `created_at` keeps their order. */
  async recordMany(lines: readonly ActivityLine[]): Promise<void> {
    if (lines.length === 0) return;
    const projectId = oneProject(lines);
    const row = await this.db.single<{ n: number }>(
      sql`WITH ${linesCte(projectId, lines)},
       ${DELIVERIES}
       SELECT count(*)::int AS n FROM ins`,
      { prepare: true },
    );
    if (row.n > 0) await wakeWorkers(this.db, projectId);
  }

  /**
   * The lines in one statement, and one delivery per enabled webhook that listens to one of
   * `kinds`: the first such kind, about the project (task null), stamped like the last line.
   */
  async recordRingingOnce(lines: readonly ActivityLine[], kinds: readonly ActivityKind[]): Promise<void> {
    if (lines.length === 0) return;
    const projectId = oneProject(lines);
    const row = await this.db.single<{ n: number }>(
      sql`WITH ${linesCte(projectId, lines)},
       ${deliveriesCte(LINES_PROJECT, NO_WEBHOOK, { ringOnceKinds: sql`${kinds}` })}
       SELECT count(*)::int AS n FROM ins`,
    );
    if (row.n > 0) await wakeWorkers(this.db, projectId);
  }
}

function oneProject(lines: readonly ActivityLine[]): string {
  const projectId = lines[0].projectId;
  if (lines.some((l) => l.projectId !== projectId)) throw new Error('recordMany takes the lines of one project');
  return projectId;
}

/** One delivery of `kind` for a single webhook, outside any feed line (the test route). */
export async function enqueueDeliveries(
  db: Database,
  input: { projectId: string; kind: string; taskId: string | null; at: Date; webhookId: string },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    sql`WITH line AS (SELECT ${input.at}::timestamptz AS created_at, ${input.kind}::text AS kind, ${input.taskId}::uuid AS task_id),
      ${deliveriesCte(sql`${input.projectId}::uuid`, sql`${input.webhookId}::uuid`)} SELECT id FROM ins`,
  );
  if (rows.length > 0) await wakeWorkers(db, input.projectId);
  return rows.map((r) => r.id);
}

/** Wakes the delivery workers at commit, so the first try goes out at once. */
function wakeWorkers(db: Database, projectId: string): Promise<void> {
  return db.notify(WEBHOOK_CHANNEL, projectId);
}
