import { Injectable } from '@nestjs/common';
import { planFilters } from '@board/filters';
import { QueueRequest, WorkQueue } from '@board/runs';
import { Database } from '../database';
import { raw, Sql, sql } from '../sql';
import { filterPlanSql } from '../filter-plan.sql';
import { orderBySql } from '../views/view-sort.sql';
import { advisoryTryTake, overSql } from './work-queue.sql';

/** Candidates read at a time: enough that 16 agents at once rarely need a second read. */
const BATCH = 32;

/**
 * `runs/next` without waiting and without a lost task. The candidates are read in order; each is
 * then tried with its queue lock (`pg_try_advisory_xact_lock`, never waiting): a task another
 * call holds is skipped. A lock taken means no other claim is under way on the task, but one may
 * have committed since the candidates were read, so the task's open run is checked again in a new
 * statement (a new snapshot under READ COMMITTED) before it is handed out. A direct claim takes
 * the same lock before its INSERT (PgRunRepository.open), so it never races past this check.
 */
@Injectable()
export class PgWorkQueue extends WorkQueue {
  constructor(private readonly db: Database) {
    super();
  }

  async take(request: QueueRequest): Promise<string | null> {
    // Tasks whose lock was taken but that a claim committed meanwhile: never offered again.
    const spent: string[] = [];
    for (let offset = 0; ; offset += BATCH) {
      const { id, read } = await this.tryBatch(request, spent, offset);
      if (id) {
        const free = await this.db.one(
          sql`SELECT 1 FROM tasks t WHERE t.project_id = ${request.projectId} AND t.id = ${id} AND t.deleted_at IS NULL AND t.archived_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.project_id = t.project_id AND r.task_id = t.id AND r.ended_at IS NULL)`,
        );
        if (free) return id;
        spent.push(id);
        offset -= BATCH; // the same window again, without that task
        continue;
      }
      if (read < BATCH) return null;
    }
  }

  /**
   * One statement: a window of candidates in order, each tried with its lock until one is taken.
   * The window is unnested from an array in order, so no sort sits between the rows and the lock's
   * filter: the filter runs row by row and LIMIT 1 stops at the first lock taken, never trying
   * (and holding) a lock beyond it. (A filter above an ORDER BY was seen to take locks it then
   * dropped from the answer: the queue test of 16 agents at once caught it.)
   */
  private async tryBatch(request: QueueRequest, spent: readonly string[], offset: number): Promise<{ id: string | null; read: number }> {
    const row = await this.db.single<{ id: string | null; read: number }>(
      sql`WITH window_ AS MATERIALIZED (${this.candidates(request, spent, offset)})
          SELECT (SELECT c.id FROM unnest((SELECT array_agg(id ORDER BY n) FROM window_)) AS c(id) WHERE ${advisoryTryTake(raw('c.id'))} LIMIT 1) AS id,
                 (SELECT count(*)::int FROM window_) AS read`,
    );
    return row;
  }

  /** Eligible tasks in the queue's order, numbered (`n`), a window of BATCH from `offset`. */
  private candidates(request: QueueRequest, spent: readonly string[], offset: number): Sql {
    const { projectId, agentId, properties, doneWhen } = request;
    const people = properties.filter((p) => p.type === 'person').map((p) => p.id);
    const filters: Sql = request.filters ? filterPlanSql(planFilters(request.filters, { me: agentId, properties })) : raw('TRUE');
    return sql`SELECT t.id, row_number() OVER () AS n FROM (SELECT t.id FROM tasks t
          WHERE t.project_id = ${projectId} AND t.deleted_at IS NULL AND t.archived_at IS NULL
            AND NOT (t.id = ANY (${spent}::uuid[]))
            AND NOT ${overSql('t', doneWhen)}
            -- Scalar subqueries, so each stays a per-task probe of its index (runs_one_open; the
            -- task_links key, then tasks' own) whatever the statistics say: as anti-joins, a
            -- project made a moment ago (never analysed) was planned as a scan of every open run
            -- and every link per task, which grew with each claim.
            AND (SELECT TRUE FROM runs r WHERE r.project_id = t.project_id AND r.task_id = t.id AND r.ended_at IS NULL LIMIT 1) IS NULL
            AND (SELECT TRUE FROM task_links l JOIN tasks b ON b.project_id = l.project_id AND b.id = l.blocker_id
                  WHERE l.project_id = t.project_id AND l.task_id = t.id AND b.deleted_at IS NULL AND NOT ${overSql('b', doneWhen)}
                  LIMIT 1) IS NULL
            AND (
              -- When a person property names anyone, this agent must be among them.
              NOT EXISTS (SELECT 1 FROM unnest(${people}::text[]) AS p(id)
                           WHERE jsonb_typeof(t."values" -> p.id) IN ('string', 'array') AND t."values" -> p.id NOT IN ('""'::jsonb, '[]'::jsonb))
              OR EXISTS (SELECT 1 FROM unnest(${people}::text[]) AS p(id) WHERE t."values" -> p.id ? ${agentId}::text))
            AND (${filters})
          ORDER BY ${orderBySql(request.sort, properties)}
          LIMIT ${BATCH} OFFSET ${offset}) AS t`;
  }
}
