/**
 * The only SQL that writes feed lines, their webhook outbox rows and the notices of a write. The
 * unit of work's recorder (`PgActivityRecorder`) builds its statements from these, and so do
 * the one-statement hot paths (task create, value write) that cannot afford a transaction.
 */

/**
 * CTE `line`: inserts one feed line per row of the CTE `from` (none when it is empty) and answers
 * its `created_at`, `kind` and `task_id`, as `deliveriesCte` expects. The other arguments are
 * parameter placeholders or SQL expressions.
 */
export const lineCte = (n: { from: string; id: string; project: string; task: string; actor: string; kind: string; data: string }) => `
  line AS (
    INSERT INTO activity (id, project_id, task_id, actor_id, kind, data)
    SELECT ${n.id}, ${n.project}, ${n.task}, ${n.actor}, ${n.kind}, ${n.data} FROM ${n.from}
    RETURNING created_at, kind, task_id)`;

/**
 * CTEs `input` and `line`: many feed lines of project `$1` from the arrays `$2`…`$6` (ids, tasks,
 * actors, kinds, data), inserted in array order. `linesParams` makes the six parameters.
 */
export const LINES_CTE = `input AS (
    SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::jsonb[]) WITH ORDINALITY AS i(id, task_id, actor_id, kind, data, ord)),
  line AS (
    INSERT INTO activity (id, project_id, task_id, actor_id, kind, data)
    SELECT id, $1, task_id, actor_id, kind, data FROM input ORDER BY ord
    RETURNING created_at, kind, task_id)`;

/**
 * The outbox half of feed lines. Expects a CTE `line` of the lines' `created_at`, `kind` and
 * `task_id` (no rows, no deliveries); `p` project and `wh` webhook are parameter placeholders.
 * - By default: one pending delivery per line and enabled webhook of the project whose kinds match
 *   the line's (or only the webhook `wh`, for a test). `taskNumber`, an SQL expression of the task's
 *   number when the task is written by the same statement (which cannot read it back).
 * - `ringOnceKinds` (a `text[]` placeholder): one delivery per enabled webhook that listens to one
 *   of these kinds, of the first such kind, about the project (task null), stamped like the last line.
 * Each body is fixed now. Answers the new delivery ids from `ins`.
 */
export const deliveriesCte = (p: string, wh: string, options: { taskNumber?: string; ringOnceKinds?: string } = {}) => `
  ${options.ringOnceKinds ? ringOnceTarget(p, options.ringOnceKinds) : perLineTarget(p, wh, options.taskNumber)},
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

const perLineTarget = (p: string, wh: string, taskNumber?: string) => `
  target AS (
    SELECT l.created_at, l.kind, l.task_id, w.id AS webhook_id, pr.key AS project_key, gen_random_uuid() AS delivery_id,
           pr.key || '-' || ${taskNumber ?? `(SELECT ta.number FROM tasks ta WHERE ta.project_id = w.project_id AND ta.id = l.task_id)`} AS task_key
      FROM line l JOIN webhooks w ON w.project_id = ${p} JOIN projects pr ON pr.id = w.project_id
     WHERE ${wh}::uuid IS NOT NULL AND w.id = ${wh}
        OR ${wh}::uuid IS NULL AND w.enabled AND (jsonb_array_length(w.kinds) = 0 OR w.kinds ? l.kind))`;

const ringOnceTarget = (p: string, kinds: string) => `
  target AS (
    SELECT (SELECT max(created_at) FROM line) AS created_at, k.kind, NULL::uuid AS task_id, w.id AS webhook_id,
           pr.key AS project_key, gen_random_uuid() AS delivery_id, NULL::text AS task_key
      FROM webhooks w JOIN projects pr ON pr.id = w.project_id,
           LATERAL (SELECT x.k FROM unnest(${kinds}::text[]) WITH ORDINALITY AS x(k, o)
                     WHERE jsonb_array_length(w.kinds) = 0 OR w.kinds ? x.k ORDER BY x.o LIMIT 1) AS k(kind)
     WHERE w.project_id = ${p} AND w.enabled AND EXISTS (SELECT 1 FROM line))`;

/**
 * Select-list columns that send the notices of a write made as one statement outside a
 * transaction (no COMMIT to carry them): the change notice once per row of `ringWhen`, and the
 * delivery workers' wake-up when the `ins` CTE of `deliveriesCte` wrote anything. The other
 * arguments are parameter placeholders: the two channels, the change payload and the project.
 */
export const noticeColumns = (n: { ringWhen: string; changeChannel: string; payload: string; webhookChannel: string; project: string }) => `
  (SELECT count(*) FROM ${n.ringWhen}, LATERAL (SELECT pg_notify(${n.changeChannel}, ${n.payload})) n)::int AS rang,
  (SELECT count(*) FROM (SELECT 1 FROM ins LIMIT 1) i, LATERAL (SELECT pg_notify(${n.webhookChannel}, ${n.project}::text)) n)::int AS woke`;
