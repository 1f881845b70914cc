import { Injectable } from '@nestjs/common';
import { ChartKind } from '@board/charts';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';
import { ChartQuery, ChartScope } from './chart.query';

/**
 * What changes a counted series, as set-based pieces over the feed (never replayed in order, so
 * PostgreSQL sorts nothing the size of the feed), over a `ChartScope` (days in UTC).
 *
 * - `tracked`: the projects the reader is still in, the property followed in each, and `keep`: the
 *   options that count (the done options that still exist; for flow, all the property's options).
 * - `born`: each task with its value at creation: the `selects` of its `created` line, or of its
 *   `import` line (an imported task has no created line: its import is its creation); for a task
 *   whose line says nothing (written before lines carried it) the `from` of its first line that
 *   does, else its current value, so the counts stay whole whatever the feed's age.
 * - `moved`: each value line's [from, to] of the property (`changes`). A deleted task takes no
 *   writes, so every line falls while the task is there.
 * - `toggled`: each `deleted` line (deleted / restored, they alternate) with the value the task
 *   held at that moment: the `to` of its latest earlier line, else its value at creation.
 */
const pieces = ({ userId, projectIds, propertyId: prop, from }: ChartScope): Sql => sql`
  tracked AS (
    SELECT p.id AS project_id, COALESCE(${prop}::uuid::text, p.done_when ->> 'propertyId') AS prop,
           ARRAY(SELECT o.id::text FROM options o
                  WHERE o.project_id = p.id AND o.property_id::text = COALESCE(${prop}::uuid::text, p.done_when ->> 'propertyId')
                    AND (${prop}::uuid IS NOT NULL OR p.done_when -> 'optionIds' ? o.id::text)) AS keep
      FROM projects p JOIN members m ON m.project_id = p.id AND m.user_id = ${userId}
     WHERE p.id = ANY(${projectIds}::uuid[]) AND (${prop}::uuid IS NULL OR p.id = (SELECT project_id FROM properties WHERE id = ${prop}::uuid))),
  created AS MATERIALIZED (
    SELECT t.project_id, t.id AS task_id, k.prop, k.keep, ((t.created_at AT TIME ZONE 'UTC')::date - ${from}::date) AS day,
           COALESCE(c.data ? 'selects', false) AS told,
           CASE WHEN c.data ? 'selects' THEN c.data -> 'selects' ->> k.prop ELSE t."values" ->> k.prop END AS val
      FROM tracked k JOIN tasks t ON t.project_id = k.project_id
      LEFT JOIN activity c ON c.project_id = t.project_id AND c.task_id = t.id AND c.kind IN ('created', 'import')),
  -- Only for tasks whose created or import line says nothing (older lines): the from of their first line.
  firsts AS (
    SELECT DISTINCT ON (v.task_id) v.task_id, v.data -> 'changes' -> u.prop ->> 0 AS val
      FROM created u JOIN activity v ON v.project_id = u.project_id AND v.task_id = u.task_id AND v.kind = 'value'
     WHERE NOT u.told AND v.data -> 'changes' ? u.prop
     ORDER BY v.task_id, v.created_at, v.id),
  born AS MATERIALIZED (
    SELECT u.task_id, u.keep, u.day, CASE WHEN f.task_id IS NOT NULL THEN f.val ELSE u.val END AS val
      FROM created u LEFT JOIN firsts f ON f.task_id = u.task_id),
  moved AS (
    SELECT a.task_id, k.keep, ((a.created_at AT TIME ZONE 'UTC')::date - ${from}::date) AS day,
           a.data -> 'changes' -> k.prop ->> 0 AS v_from, a.data -> 'changes' -> k.prop ->> 1 AS v_to
      FROM tracked k JOIN activity a ON a.project_id = k.project_id AND a.kind = 'value'
     WHERE a.data -> 'changes' ? k.prop),
  toggled AS (
    SELECT d.task_id, b.keep, ((d.created_at AT TIME ZONE 'UTC')::date - ${from}::date) AS day, d.created_at AS at,
           d.data ->> 'action' = 'restored' AS back, CASE WHEN l.found THEN l.val ELSE b.val END AS val
      FROM tracked k
      JOIN activity d ON d.project_id = k.project_id AND d.kind = 'deleted'
      JOIN born b ON b.task_id = d.task_id
      LEFT JOIN LATERAL (
        SELECT true AS found, v.data -> 'changes' -> k.prop ->> 1 AS val
          FROM activity v
         WHERE v.project_id = d.project_id AND v.task_id = d.task_id AND v.kind = 'value' AND v.data -> 'changes' ? k.prop
           AND (v.created_at, v.id) < (d.created_at, d.id)
         ORDER BY v.created_at DESC, v.id DESC LIMIT 1) l ON true)`;

/**
 * Each series is the running sum, over the day series, of its changes `delta(day, key, d)`: day 0
 * is the first day asked for; changes before it count on day 0, changes after the last not at all.
 */
const running = ({ from, to }: ChartScope): Sql => sql`
  sums AS (SELECT greatest(day, 0) AS day, key, sum(d) AS d FROM delta WHERE day <= ${to}::date - ${from}::date GROUP BY 1, 2)
  SELECT g.day, k.key, (sum(COALESCE(s.d, 0)) OVER (PARTITION BY k.key ORDER BY g.day))::int AS n
    FROM generate_series(0, ${to}::date - ${from}::date) g(day)
   CROSS JOIN (SELECT DISTINCT key FROM sums) k
    LEFT JOIN sums s ON s.day = g.day AND s.key = k.key`;

/** Is `v` one of the options that count (null is not). */
const IN_KEEP = (v: string): Sql => raw(`COALESCE(${v} = ANY(keep), false)`);
/** The flow column of `v`: the option, or none. */
const COLUMN = (v: string): Sql => sql`CASE WHEN ${IN_KEEP(v)} THEN ${raw(v)} ELSE 'none' END`;

const SQL: Record<ChartKind, (scope: ChartScope) => Sql> = {
  // total: the tasks there at the end of the day; done: those of them that are over.
  burnup: (scope) => sql`WITH ${pieces(scope)},
    delta AS (
      SELECT day, 'total' AS key, 1 AS d FROM born
      UNION ALL SELECT day, 'total', CASE WHEN back THEN 1 ELSE -1 END FROM toggled
      UNION ALL SELECT day, 'done', 1 FROM born WHERE ${IN_KEEP('val')}
      UNION ALL SELECT day, 'done', ${IN_KEEP('v_to')}::int - ${IN_KEEP('v_from')}::int FROM moved
      UNION ALL SELECT day, 'done', CASE WHEN back THEN 1 ELSE -1 END FROM toggled WHERE ${IN_KEEP('val')}),
    ${running(scope)}`,
  // Per option of the property (or none): the tasks there holding it at the end of the day.
  flow: (scope) => sql`WITH ${pieces(scope)},
    delta AS (
      SELECT day, ${COLUMN('val')} AS key, 1 AS d FROM born
      UNION ALL SELECT day, ${COLUMN('v_from')}, -1 FROM moved
      UNION ALL SELECT day, ${COLUMN('v_to')}, 1 FROM moved
      UNION ALL SELECT day, ${COLUMN('val')}, CASE WHEN back THEN 1 ELSE -1 END FROM toggled),
    ${running(scope)}`,
  // Each time a task became over (created over, or not over to over), on a day it is there at its end.
  throughput: (scope) => sql`WITH ${pieces(scope)},
    gone AS (
      SELECT task_id, day FROM (SELECT DISTINCT ON (task_id, day) task_id, day, back FROM toggled ORDER BY task_id, day, at DESC) x WHERE NOT back),
    became AS (
      SELECT task_id, day FROM born WHERE ${IN_KEEP('val')}
      UNION ALL SELECT task_id, day FROM moved WHERE ${IN_KEEP('v_to')} AND NOT ${IN_KEEP('v_from')})
    SELECT b.day, 'done' AS key, count(*)::int AS n
      FROM became b
     WHERE b.day BETWEEN 0 AND ${scope.to}::date - ${scope.from}::date
       AND NOT EXISTS (SELECT 1 FROM gone g WHERE g.task_id = b.task_id AND g.day = b.day)
     GROUP BY b.day`,
};

/** Chart data counted by PostgreSQL, one statement per chart kind. */
@Injectable()
export class PgChartQuery extends ChartQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** Counted values `{ day (index from `from`), key, n }`; a series has no row on a day it counts 0. */
  async counts(input: ChartScope & { kind: ChartKind }): Promise<{ day: number; key: string; n: number }[]> {
    const { kind, ...scope } = input;
    return this.db.query<{ day: number; key: string; n: number }>(SQL[kind]({ ...scope, propertyId: kind === 'flow' ? scope.propertyId : null }));
  }
}
