import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityKind, ActivityLine, ActivityRecorder } from '@board/kernel';
import { Database } from '../database';

export const WEBHOOK_CHANNEL = 'board_webhooks';

/**
 * The outbox half of feed lines: one pending delivery per line and enabled webhook of the project
 * whose kinds match the line's (or only the webhook `$wh`, for a test), its body fixed now. Expects
 * a CTE `line` of the lines' `created_at`, `kind` and `task_id` (no rows, no deliveries); `$p`
 * project and `$wh` webhook are parameter placeholders; `taskNumber`, an SQL expression of the
 * task's number when the task is written by the same statement (which cannot read it back).
 * Answers the new delivery ids from `ins`.
 */
export const deliveriesCte = (p: string, wh: string, taskNumber?: string) => `
  target AS (
    SELECT l.created_at, l.kind, l.task_id, w.id AS webhook_id, pr.key AS project_key, gen_random_uuid() AS delivery_id,
           pr.key || '-' || ${taskNumber ?? `(SELECT ta.number FROM tasks ta WHERE ta.project_id = w.project_id AND ta.id = l.task_id)`} AS task_key
      FROM line l JOIN webhooks w ON w.project_id = ${p} JOIN projects pr ON pr.id = w.project_id
     WHERE ${wh}::uuid IS NOT NULL AND w.id = ${wh}
        OR ${wh}::uuid IS NULL AND w.enabled AND (jsonb_array_length(w.kinds) = 0 OR w.kinds ? l.kind)),
  ins AS (
    INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, task_id, task_key, body, next_try_at)
    SELECT delivery_id, ${p}, webhook_id, kind, task_id, task_key,
           json_build_object('delivery', delivery_id, 'projectId', ${p}::uuid, 'projectKey', project_key, 'kind', kind,
                             'taskId', task_id, 'taskKey', task_key,
                             'at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
           -- Whole milliseconds: the worker claims by its own clock, which has no finer grain, and a
           -- wake-up within the same millisecond must find the delivery due.
           date_trunc('milliseconds', clock_timestamp())
      FROM target
    RETURNING id)`;

/**
 * Select-list columns that send the notices of a write made as one statement outside a
 * transaction (no COMMIT to carry them): the change notice once per row of `ringWhen`, and the
 * delivery workers' wake-up when the `ins` CTE of `deliveriesCte` wrote anything. The other
 * arguments are parameter placeholders: the two channels, the change payload and the project.
 */
export const noticeColumns = (n: { ringWhen: string; changeChannel: string; payload: string; webhookChannel: string; project: string }) => `
  (SELECT count(*) FROM ${n.ringWhen}, LATERAL (SELECT pg_notify(${n.changeChannel}, ${n.payload})) n)::int AS rang,
  (SELECT count(*) FROM (SELECT 1 FROM ins LIMIT 1) i, LATERAL (SELECT pg_notify(${n.webhookChannel}, ${n.project}::text)) n)::int AS woke`;

/**
 * Writes a feed line inside the caller's transaction, and with it (same statement) one delivery
 * row per matching webhook: both commit or neither.
 */
@Injectable()
export class TypeormActivityRecorder extends ActivityRecorder {
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
      `WITH ${INPUT_LINES},
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
      `WITH ${INPUT_LINES},
       target AS (
         SELECT w.id AS webhook_id, pr.key AS project_key, gen_random_uuid() AS delivery_id,
                (SELECT k FROM unnest($7::text[]) WITH ORDINALITY AS x(k, o)
                  WHERE jsonb_array_length(w.kinds) = 0 OR w.kinds ? k ORDER BY o LIMIT 1) AS kind
           FROM webhooks w JOIN projects pr ON pr.id = w.project_id
          WHERE w.project_id = $1 AND w.enabled),
       ins AS (
         INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, task_id, task_key, body, next_try_at)
         SELECT delivery_id, $1, webhook_id, kind, NULL, NULL,
                json_build_object('delivery', delivery_id, 'projectId', $1::uuid, 'projectKey', project_key, 'kind', kind,
                                  'taskId', NULL, 'taskKey', NULL,
                                  'at', to_char((SELECT max(created_at) FROM line) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
                date_trunc('milliseconds', clock_timestamp())
           FROM target WHERE kind IS NOT NULL
         RETURNING id)
       SELECT count(*)::int AS n FROM ins`,
      [...lineParams(projectId, lines), kinds],
    );
    if (row!.n > 0) await wakeWorkers(this.db, projectId);
  }
}

/** CTEs `input` and `line`: the lines of parameters $2…$6 inserted into the feed for project $1. */
const INPUT_LINES = `input AS (
         SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::jsonb[]) WITH ORDINALITY AS i(id, task_id, actor_id, kind, data, ord)),
       line AS (
         INSERT INTO activity (id, project_id, task_id, actor_id, kind, data)
         SELECT id, $1, task_id, actor_id, kind, data FROM input ORDER BY ord
         RETURNING created_at, kind, task_id)`;

function oneProject(lines: readonly ActivityLine[]): string {
  const projectId = lines[0].projectId;
  if (lines.some((l) => l.projectId !== projectId)) throw new Error('recordMany takes the lines of one project');
  return projectId;
}

/** Parameters $1…$6 of `INPUT_LINES`. */
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
