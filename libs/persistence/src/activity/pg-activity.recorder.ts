import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { compileOnce, sql } from '../sql';
import { deliveriesCte, LinesInput, linesWriteCtes } from './feed.sql';
import { LineBatch, lineValues } from './event-writes';

export const WEBHOOK_CHANNEL = 'board_webhooks';

type LineSlot = keyof LinesInput;
const lineSlots = (slot: (name: LineSlot | 'kindsRinging') => unknown): LinesInput => ({
  project: slot('project'),
  ids: slot('ids'),
  tasks: slot('tasks'),
  actors: slot('actors'),
  kinds: slot('kinds'),
  data: slot('data'),
});

// Compiled once: a feed write (every write records) only lines its values up.
const RECORD = compileOnce<LineSlot | 'kindsRinging'>((slot) => sql`WITH ${linesWriteCtes(lineSlots(slot))} SELECT count(*)::int AS n FROM ins`);
const RECORD_RINGING_ONCE = compileOnce<LineSlot | 'kindsRinging'>(
  (slot) => sql`WITH ${linesWriteCtes(lineSlots(slot), { ringOnceKinds: sql`${slot('kindsRinging')}` })} SELECT count(*)::int AS n FROM ins`,
);

/**
 * Writes a batch of feed lines inside the caller's transaction, and with them (same statement)
 * their webhook outbox rows: both commit or neither. Called by the unit of work only
 * (`PgUnitOfWork`), with the batches `eventWrites` made of a write's events: an adapter of the
 * unit of work, not a port of its own (nothing outside the unit of work may record).
 */
@Injectable()
export class PgActivityRecorder {
  constructor(private readonly db: Database) {}

  async recordBatch(batch: LineBatch): Promise<void> {
    if (batch.lines.length === 0) return;
    const statement = batch.ringOnce ? RECORD_RINGING_ONCE : RECORD;
    const row = await this.db.single<{ n: number }>(statement.text, statement.values({ ...lineValues(batch), kindsRinging: batch.ringOnce }), { prepare: true });
    if (row.n > 0) await wakeWorkers(this.db, batch.projectId);
  }
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
