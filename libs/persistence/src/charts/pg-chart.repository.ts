import { Injectable } from '@nestjs/common';
import { ChartRecord, ChartRepository, FlowProperty } from '@board/charts';
import { Database } from '../database';
import { sql } from '../sql';
import { CHART_COLUMNS } from './charts.table';

/** A person's charts in PostgreSQL, and the lookups their checks need. */
@Injectable()
export class PgChartRepository extends ChartRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async list(userId: string): Promise<ChartRecord[]> {
    return this.db.query<ChartRecord>(sql`SELECT ${CHART_COLUMNS} FROM charts WHERE user_id = ${userId} ORDER BY created_at, id`);
  }

  async find(userId: string, chartId: string): Promise<ChartRecord | null> {
    return this.db.one<ChartRecord>(sql`SELECT ${CHART_COLUMNS} FROM charts WHERE user_id = ${userId} AND id = ${chartId}`);
  }

  async insert(c: ChartRecord): Promise<void> {
    await this.db.exec(sql`INSERT INTO charts (id, user_id, name, kind, project_ids, property_id, created_at)
      VALUES (${c.id}, ${c.userId}, ${c.name}, ${c.kind}, ${c.projectIds}::uuid[], ${c.propertyId}, ${c.createdAt})`);
  }

  async update(c: ChartRecord): Promise<void> {
    await this.db.exec(sql`UPDATE charts SET name = ${c.name}, project_ids = ${c.projectIds}::uuid[], property_id = ${c.propertyId}
      WHERE user_id = ${c.userId} AND id = ${c.id}`);
  }

  async delete(userId: string, chartId: string): Promise<boolean> {
    return (await this.db.exec(sql`DELETE FROM charts WHERE user_id = ${userId} AND id = ${chartId}`)).count > 0;
  }

  async memberProjects(userId: string, projectIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ project_id: string }>(
      sql`SELECT project_id FROM members WHERE user_id = ${userId} AND project_id = ANY(${projectIds}::uuid[])`,
    );
    return new Set(rows.map((r) => r.project_id));
  }

  async memberProjectsOfCharts(userId: string): Promise<Set<string>> {
    const rows = await this.db.query<{ project_id: string }>(
      sql`SELECT m.project_id FROM members m WHERE m.user_id = ${userId}
             AND EXISTS (SELECT 1 FROM charts c WHERE c.user_id = ${userId} AND m.project_id = ANY(c.project_ids))`,
    );
    return new Set(rows.map((r) => r.project_id));
  }

  async property(propertyId: string, projectIds: readonly string[]): Promise<FlowProperty | null> {
    return this.db.one<FlowProperty>(
      sql`SELECT p.id, p.project_id AS "projectId", p.name, p.type,
                 COALESCE((SELECT json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color) ORDER BY o.position COLLATE "C", o.id)
                             FROM options o WHERE o.project_id = p.project_id AND o.property_id = p.id), '[]') AS options
            FROM properties p WHERE p.id = ${propertyId} AND p.project_id = ANY(${projectIds}::uuid[])`,
    );
  }
}
