import { Injectable } from '@nestjs/common';
import { ChartKind } from '@board/charts';
import { Database } from '../database';

/**
 * Every moment a counted task's state may change, per task in feed order, with the state after it.
 * Parameters: $1 reader, $2 project ids, $3 flow property (null: each project's doneWhen property).
 *
 * - `tracked`: the projects the reader is still in, each with the property that is followed.
 * - `ev`: the task's creation (its select values at creation from its `created` line; a line
 *   written before lines carried them, or a task without one, reads as its current value), its
 *   `value` lines of the property (`optionId`, or null when a hiding write dropped it) and its
 *   `deleted` lines (deleted / restored). Lines carry the task's creation time at the least.
 * - `st`: after each event, the value (`val`) and whether the task is there (`present`): the value
 *   of the latest event that sets one, found as the only non-null in its run (PostgreSQL has no
 *   IGNORE NULLS).
 */
const STATES = `
  tracked AS (
    SELECT p.id AS project_id, COALESCE($3::uuid::text, p.done_when ->> 'propertyId') AS prop, p.done_when -> 'optionIds' AS done_ids
      FROM projects p JOIN members m ON m.project_id = p.id AND m.user_id = $1
     WHERE p.id = ANY($2::uuid[]) AND ($3::uuid IS NULL OR p.id = (SELECT project_id FROM properties WHERE id = $3::uuid))),
  ev AS (
    SELECT t.project_id, t.id AS task_id, t.created_at AS at, 0 AS seq, NULL::uuid AS line_id,
           true AS sets_val,
           CASE WHEN c.data ? 'selects' THEN c.data -> 'selects' ->> k.prop ELSE t."values" ->> k.prop END AS val,
           true AS present
      FROM tracked k JOIN tasks t ON t.project_id = k.project_id
      LEFT JOIN activity c ON c.project_id = t.project_id AND c.task_id = t.id AND c.kind = 'created'
    UNION ALL
    SELECT a.project_id, a.task_id, greatest(a.created_at, t.created_at), 1, a.id,
           a.kind = 'value',
           CASE WHEN a.kind = 'value' AND NOT COALESCE(a.data -> 'propertyIds' ? k.prop, false) THEN a.data ->> 'optionId' END,
           CASE WHEN a.kind = 'deleted' THEN a.data ->> 'action' = 'restored' END
      FROM tracked k
      JOIN activity a ON a.project_id = k.project_id AND a.kind IN ('value', 'deleted')
      JOIN tasks t ON t.project_id = a.project_id AND t.id = a.task_id
     WHERE a.kind = 'deleted' OR a.data ->> 'propertyId' = k.prop OR a.data -> 'propertyIds' ? k.prop),
  runs AS (
    SELECT ev.*,
           count(*) FILTER (WHERE sets_val) OVER w AS val_run,
           count(present) OVER w AS present_run
      FROM ev WINDOW w AS (PARTITION BY task_id ORDER BY at, seq, line_id)),
  st AS (
    SELECT project_id, task_id, at, seq, line_id,
           ((at AT TIME ZONE 'UTC')::date - $4::date) AS day,
           max(val) OVER (PARTITION BY task_id, val_run) AS val,
           bool_or(present) OVER (PARTITION BY task_id, present_run) AS present
      FROM runs)`;

/**
 * The day series from counted changes `delta(day, key, d)`: day 0 is `from` ($4), changes before it
 * count on day 0, after `to` ($5) not at all; each series is the running sum over the days.
 */
const RUNNING = `
  sums AS (SELECT greatest(day, 0) AS day, key, sum(d) AS d FROM delta WHERE day <= $5::date - $4::date GROUP BY 1, 2)
  SELECT g.day, k.key, (sum(COALESCE(s.d, 0)) OVER (PARTITION BY k.key ORDER BY g.day))::int AS n
    FROM generate_series(0, $5::date - $4::date) g(day)
   CROSS JOIN (SELECT DISTINCT key FROM sums) k
    LEFT JOIN sums s ON s.day = g.day AND s.key = k.key`;

/** Over: the value is one of the project's done options. */
const OVER = `COALESCE((SELECT k.done_ids ? st.val FROM tracked k WHERE k.project_id = st.project_id), false)`;

const SQL: Record<ChartKind, string> = {
  // total: the tasks there at the end of the day; done: those of them that are over.
  burnup: `WITH ${STATES},
    marked AS (SELECT task_id, at, seq, line_id, day, present::int AS total, (present AND ${OVER})::int AS done FROM st),
    delta AS (
      SELECT day, x.key, x.d
        FROM (SELECT day, total - lag(total, 1, 0) OVER w AS dt, done - lag(done, 1, 0) OVER w AS dd
                FROM marked WINDOW w AS (PARTITION BY task_id ORDER BY at, seq, line_id)) c,
             LATERAL (VALUES ('total', c.dt), ('done', c.dd)) x(key, d)
       WHERE x.d <> 0),
    ${RUNNING}`,
  // Per option of the property (or none) the tasks there holding it at the end of the day.
  flow: `WITH ${STATES},
    opts AS (SELECT id::text AS id FROM options WHERE property_id = $3::uuid),
    marked AS (
      SELECT task_id, at, seq, line_id, day,
             CASE WHEN NOT present THEN NULL WHEN val IN (SELECT id FROM opts) THEN val ELSE 'none' END AS bucket
        FROM st),
    delta AS (
      SELECT day, x.key, x.d
        FROM (SELECT day, bucket, lag(bucket) OVER w AS before FROM marked WINDOW w AS (PARTITION BY task_id ORDER BY at, seq, line_id)) c,
             LATERAL (VALUES (c.bucket, 1), (c.before, -1)) x(key, d)
       WHERE c.bucket IS DISTINCT FROM c.before AND x.key IS NOT NULL),
    ${RUNNING}`,
  // Each time a task became over (created over, or not over to over), on a day it is there at its end.
  throughput: `WITH ${STATES},
    marked AS (
      SELECT day, ${OVER} AS over, present,
             task_id, at, seq, line_id
        FROM st),
    turns AS (
      SELECT day, over AND NOT COALESCE(lag(over) OVER w, false) AS became,
             last_value(present) OVER (PARTITION BY task_id, day ORDER BY at, seq, line_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS there
        FROM marked WINDOW w AS (PARTITION BY task_id ORDER BY at, seq, line_id))
    SELECT day, 'done' AS key, count(*)::int AS n FROM turns
     WHERE became AND there AND day BETWEEN 0 AND $5::date - $4::date GROUP BY day`,
};

/** Chart data, counted by PostgreSQL from the feed and the tasks' current state; never the feed in the service. */
@Injectable()
export class ChartQueries {
  constructor(private readonly db: Database) {}

  /** Counted values `{ day (index from `from`), key, n }`; a series has no row on a day it counts 0. */
  async counts(input: { userId: string; kind: ChartKind; projectIds: readonly string[]; propertyId: string | null; from: string; to: string }) {
    return this.db.query<{ day: number; key: string; n: number }>(SQL[input.kind], [
      input.userId,
      input.projectIds,
      input.kind === 'flow' ? input.propertyId : null,
      input.from,
      input.to,
    ]);
  }
}
