import { randomUUID } from 'node:crypto';
import { ActivityLine } from '@board/kernel';
import { compile, raw, Sql, sql } from '../sql';
import { ACTIVITY_COLUMNS } from './activity.table';

/**
 * The only SQL that writes feed lines, their webhook outbox rows and the notices of a write. The
 * unit of work's recorder (`PgActivityRecorder`) builds its statements from these, and so do
 * the one-statement hot paths (task create, value write) that cannot afford a transaction.
 *
 * The fragments take SQL expressions (`Sql`: a value as `sql\`${id}::uuid\``, or a column). Given
 * text instead (placeholders such as `'$1'`), they answer text: the form the statements of
 * tasks/ still number by hand use, until they are templates too.
 */
type Expr = Sql | string;

const asSql = (e: Expr): Sql => (typeof e === 'string' ? raw(e) : e);

/** The fragment as text when it was given text: then it must hold no value (text has no room for one). */
function answer(given: Expr, fragment: Sql): Sql | string {
  if (typeof given !== 'string') return fragment;
  const { text, values } = compile(fragment);
  if (values.length > 0) throw new Error('a fragment given placeholder text cannot take values');
  return text;
}

const INSERT_LINES = sql`INSERT INTO activity (${ACTIVITY_COLUMNS})`;
/** What `deliveriesCte` reads of the lines. */
const LINE_RETURNING = raw('RETURNING created_at, kind, task_id');

interface LineParts<E extends Expr> {
  from: E;
  id: E;
  project: E;
  task: E;
  actor: E;
  kind: E;
  data: E;
}

/**
 * CTE `line`: inserts one feed line per row of the CTE `from` (none when it is empty) and answers
 * its `created_at`, `kind` and `task_id`, as `deliveriesCte` expects.
 */
export function lineCte(n: LineParts<Sql>): Sql;
export function lineCte(n: LineParts<string>): string;
export function lineCte(n: LineParts<Expr>): Sql | string {
  return answer(
    n.from,
    sql`
  line AS (
    ${INSERT_LINES}
    SELECT ${asSql(n.id)}, ${asSql(n.project)}, ${asSql(n.task)}, ${asSql(n.actor)}, ${asSql(n.kind)}, ${asSql(n.data)} FROM ${asSql(n.from)}
    ${LINE_RETURNING})`,
  );
}

/**
 * CTEs `project`, `input` and `line`: the feed lines of one project, inserted in their order. Ids
 * ascend in line order: lines stamped in the same millisecond still read in order (feed order is
 * created_at to the millisecond, then id). The project id is bound once, in `project`, so that
 * what follows can name it as `LINES_PROJECT` and be built once, not on every write.
 */
export function linesCte(projectId: string, lines: readonly ActivityLine[]): Sql {
  const ids = lines.map(() => randomUUID()).sort();
  return sql`project AS (SELECT ${projectId}::uuid AS id),
  input AS (
    SELECT * FROM unnest(${ids}::uuid[], ${lines.map((l) => l.taskId)}::uuid[], ${lines.map((l) => l.actorId)}::uuid[],
                         ${lines.map((l) => l.kind)}::text[], ${lines.map((l) => JSON.stringify(l.data))}::jsonb[])
           WITH ORDINALITY AS i(id, task_id, actor_id, kind, data, ord)),
  line AS (
    ${INSERT_LINES}
    SELECT i.id, project.id, i.task_id, i.actor_id, i.kind, i.data FROM input i, project ORDER BY i.ord
    ${LINE_RETURNING})`;
}

/** The project of `linesCte`, as an expression. */
export const LINES_PROJECT = raw('(SELECT id FROM project)');

interface DeliveryOptions<E extends Expr> {
  taskNumber?: E;
  ringOnceKinds?: E;
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
export function deliveriesCte(p: Sql, wh: Sql, options?: DeliveryOptions<Sql>): Sql;
export function deliveriesCte(p: string, wh: string, options?: DeliveryOptions<string>): string;
export function deliveriesCte(given: Expr, wh: Expr, options: DeliveryOptions<Expr> = {}): Sql | string {
  const p = asSql(given);
  const target = options.ringOnceKinds
    ? ringOnceTarget(p, asSql(options.ringOnceKinds))
    : perLineTarget(p, asSql(wh), options.taskNumber === undefined ? undefined : asSql(options.taskNumber));
  return answer(
    given,
    sql`
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
    RETURNING id)`,
  );
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

interface NoticeParts<E extends Expr> {
  ringWhen: E;
  changeChannel: E;
  payload: E;
  webhookChannel: E;
  project: E;
}

/**
 * Select-list columns that send the notices of a write made as one statement outside a
 * transaction (no COMMIT to carry them): the change notice once per row of `ringWhen`, and the
 * delivery workers' wake-up when the `ins` CTE of `deliveriesCte` wrote anything. The other
 * arguments are the two channels, the change payload and the project.
 */
export function noticeColumns(n: NoticeParts<Sql>): Sql;
export function noticeColumns(n: NoticeParts<string>): string;
export function noticeColumns(n: NoticeParts<Expr>): Sql | string {
  return answer(
    n.ringWhen,
    sql`
  (SELECT count(*) FROM ${asSql(n.ringWhen)}, LATERAL (SELECT pg_notify(${asSql(n.changeChannel)}, ${asSql(n.payload)})) n)::int AS rang,
  (SELECT count(*) FROM (SELECT 1 FROM ins LIMIT 1) i, LATERAL (SELECT pg_notify(${asSql(n.webhookChannel)}, ${asSql(n.project)}::text)) n)::int AS woke`,
  );
}
