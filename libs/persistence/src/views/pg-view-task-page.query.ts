import { Injectable } from '@nestjs/common';
import { planFilters } from '@board/filters';
import { Database } from '../database';
import { sql } from '../sql';
import { filterPlanSql } from '../filter-plan.sql';
import { orderBySql } from './view-sort.sql';
import { ViewTaskPageQuery, ViewTasksPage, ViewTasksPageRequest } from './view-task-page.query';

/** The page in one statement: the rules compiled to SQL (`filterPlanSql`), every live task ranked. */
@Injectable()
export class PgViewTaskPageQuery extends ViewTaskPageQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async page(request: ViewTasksPageRequest): Promise<ViewTasksPage> {
    const { projectId, me, properties, after, limit } = request;
    const where = sql`${filterPlanSql(planFilters(request.filters, { me, properties }))} AND ${filterPlanSql(planFilters(request.lens, { me, properties }))}`;
    const order = orderBySql(request.sort, properties);
    // Every live task is ranked, passing or not, so a cursor whose task stopped passing the rules
    // between two pages (a value changed meanwhile) still marks its place instead of restarting the walk.
    return this.db.single<ViewTasksPage>(sql`WITH ranked AS (
         SELECT t.id, row_number() OVER (ORDER BY ${order}) AS rn, (${where}) AS pass
           FROM tasks t
          WHERE t.project_id = ${projectId} AND t.deleted_at IS NULL AND t.archived_at IS NULL),
       ordered AS (SELECT id, rn FROM ranked WHERE pass),
       page AS (
         SELECT id, rn FROM ordered
          WHERE rn > COALESCE((SELECT rn FROM ranked WHERE id = ${after}::uuid), 0)
          ORDER BY rn LIMIT ${limit + 1})
       SELECT (SELECT count(*)::int FROM ordered) AS total, COALESCE((SELECT json_agg(id ORDER BY rn) FROM page), '[]'::json) AS ids`);
  }
}
