import { raw, Sql, sql } from '../sql';
import { ACTIVITY_COLUMNS } from './activity.table';

/**
 * The only SQL that writes feed lines, their webhook outbox rows and the notices of a write
 * (`event-writes.ts` decides what a write's events come to; this file, how they are written). The
 * unit of work's recorder builds its statements from these, and so does the unit of work's
 * one-statement form (`PgStatementWrite`), which adds them to a repository's statement.
 *
 * The fragments take SQL values or `compileOnce` slots, so every statement built from them keeps a
 * fixed text (one prepared statement per shape, whatever the number of lines).
 */

/**
 * The values of a batch of feed lines of one project: parallel arrays in line order (see
 * `lineValues`). Given as values (`sql` binds them) or as slots of `compileOnce`.
 */
export interface LinesInput {
  project: unknown;
  ids: unknown;
  tasks: unknown;
  actors: unknown;
  kinds: unknown;
  data: unknown;
}

interface LinesOptions {
  /**
   * The input holds at most one line, as scalars (a null `data` is no line): the one-statement
   * writes, which tell one line or none, skip building and parsing arrays.
   */
  single?: boolean;
  /**
   * A CTE (or any row source) that has a row only when the write the lines are about landed: no
   * row, no line (and so no outbox row). Left out, the lines are always written.
   */
  gate?: Sql;
  /** The task's number, when the same statement inserts the task (a later CTE cannot read it back). */
  taskNumber?: Sql;
  /** Ring each webhook once about the project (see `deliveriesCte`), a `text[]`. */
  ringOnceKinds?: Sql;
}

const INSERT_LINES = sql`INSERT INTO activity (${ACTIVITY_COLUMNS})`;

/**
 * CTEs `project`, `input`, `line`, `target` and `ins`: the feed lines of one project, inserted in
 * their order, with one outbox row per line and matching webhook (`deliveriesCte`). The project is
 * bound once, in `project`.
 */
export function linesWriteCtes(input: LinesInput, options: LinesOptions = {}): Sql {
  const gate = options.gate ? sql` WHERE EXISTS (SELECT 1 FROM ${options.gate})` : raw('');
  const rows = options.single
    ? sql`SELECT ${input.ids}::uuid AS id, ${input.tasks}::uuid AS task_id, ${input.actors}::uuid AS actor_id, ${input.kinds}::text AS kind, ${input.data}::jsonb AS data, 1 AS ord
           WHERE ${input.data}::jsonb IS NOT NULL`
    : sql`SELECT * FROM unnest(${input.ids}::uuid[], ${input.tasks}::uuid[], ${input.actors}::uuid[], ${input.kinds}::text[], ${input.data}::jsonb[])
           WITH ORDINALITY AS i(id, task_id, actor_id, kind, data, ord)`;
  return sql`project AS (SELECT ${input.project}::uuid AS id),
  input AS (
    ${rows}),
  line AS (
    ${INSERT_LINES}
    SELECT i.id, project.id, i.task_id, i.actor_id, i.kind, i.data FROM input i, project${gate} ORDER BY i.ord
    RETURNING created_at, kind, task_id),
  ${deliveriesCte(LINES_PROJECT, NO_WEBHOOK, { taskNumber: options.taskNumber, ringOnceKinds: options.ringOnceKinds })}`;
}

/** The project of `linesWriteCtes`, as an expression. */
const LINES_PROJECT = raw('(SELECT id FROM project)');
const NO_WEBHOOK = raw('NULL');

interface DeliveryOptions {
  taskNumber?: Sql;
  ringOnceKinds?: Sql;
}

/**
 * The outbox half of feed lines. Expects a CTE `line` of the lines' `created_at`, `kind` and
 * `task_id` (no rows, no deliveries); `p` is the project (a uuid) and `wh` a webhook (a uuid or NULL).
 * - By default: one pending delivery per line and enabled webhook of the project whose kinds match
 *   the line's (or only the webhook `wh`, for a test). `taskNumber`, an SQL expression of the task's
 *   number when the task is written by the same statement (which cannot read it back).
 * - `ringOnceKinds` (a `text[]`): one delivery per enabled webhook that listens to one
 *   of these kinds, of the first such kind, about the project (task null), stamped like the last line.
 * Each body is fixed now. Answers the new delivery ids from `ins`.
 */
export function deliveriesCte(p: Sql, wh: Sql, options: DeliveryOptions = {}): Sql {
  const target = options.ringOnceKinds ? ringOnceTarget(p, options.ringOnceKinds) : perLineTarget(p, wh, options.taskNumber);
  return sql`
  ${target},
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
}

const TASK_NUMBER_OF_LINE = raw(`(SELECT ta.number FROM tasks ta WHERE ta.project_id = w.project_id AND ta.id = l.task_id)`);

const perLineTarget = (p: Sql, wh: Sql, taskNumber?: Sql) => sql`
  target AS (
    SELECT l.created_at, l.kind, l.task_id, w.id AS webhook_id, pr.key AS project_key, gen_random_uuid() AS delivery_id,
           pr.key || '-' || ${taskNumber ?? TASK_NUMBER_OF_LINE} AS task_key
      FROM line l JOIN webhooks w ON w.project_id = ${p} JOIN projects pr ON pr.id = w.project_id
     WHERE ${wh}::uuid IS NOT NULL AND w.id = ${wh}
        OR ${wh}::uuid IS NULL AND w.enabled AND (jsonb_array_length(w.kinds) = 0 OR w.kinds ? l.kind))`;

const ringOnceTarget = (p: Sql, kinds: Sql) => sql`
  target AS (
    SELECT (SELECT max(created_at) FROM line) AS created_at, k.kind, NULL::uuid AS task_id, w.id AS webhook_id,
           pr.key AS project_key, gen_random_uuid() AS delivery_id, NULL::text AS task_key
      FROM webhooks w JOIN projects pr ON pr.id = w.project_id,
           LATERAL (SELECT x.k FROM unnest(${kinds}::text[]) WITH ORDINALITY AS x(k, o)
                     WHERE jsonb_array_length(w.kinds) = 0 OR w.kinds ? x.k ORDER BY x.o LIMIT 1) AS k(kind)
     WHERE w.project_id = ${p} AND w.enabled AND EXISTS (SELECT 1 FROM line))`;

interface NoticeParts {
  /** Rings only when this row source has a row (the write landed). */
  gate: Sql;
  changeChannel: unknown;
  /** The change notices' payloads, a `text[]`, sent in order; with `single`, one payload (text) or null. */
  payloads: unknown;
  single?: boolean;
  webhookChannel: unknown;
}

/**
 * Select-list columns that send the notices of a write made as one statement outside a
 * transaction (no COMMIT to carry them): each change notice once when `gate` has a row, and the
 * delivery workers' wake-up when the `ins` CTE of `linesWriteCtes` wrote anything.
 */
export function noticeColumns(n: NoticeParts): Sql {
  const payloads = n.single ? sql`(SELECT ${n.payloads}::text AS payload WHERE ${n.payloads}::text IS NOT NULL)` : sql`unnest(${n.payloads}::text[])`;
  return sql`
  (SELECT count(*) FROM (SELECT 1 FROM ${n.gate} LIMIT 1) g, ${payloads} AS c(payload),
          LATERAL (SELECT pg_notify(${n.changeChannel}, c.payload)) n)::int AS rang,
  (SELECT count(*) FROM (SELECT 1 FROM ins LIMIT 1) i, LATERAL (SELECT pg_notify(${n.webhookChannel}, (SELECT id FROM project)::text)) n)::int AS woke`;
}
