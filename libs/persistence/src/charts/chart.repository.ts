import { Injectable } from '@nestjs/common';
import { ChartKind, ChartRecord } from '@board/charts';
import { Database } from '../database';

const COLUMNS = `id, user_id AS "userId", name, kind, project_ids::text[] AS "projectIds", property_id AS "propertyId", created_at AS "createdAt"`;

/** A person's charts as kept, and the lookups their checks need. */
@Injectable()
export class ChartRepository {
  constructor(private readonly db: Database) {}

  async list(userId: string): Promise<ChartRecord[]> {
    return this.db.query<ChartRecord>(`SELECT ${COLUMNS} FROM charts WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  }

  async find(userId: string, chartId: string): Promise<ChartRecord | null> {
    return this.db.one<ChartRecord>(`SELECT ${COLUMNS} FROM charts WHERE user_id = $1 AND id = $2`, [userId, chartId]);
  }

  async insert(c: ChartRecord): Promise<void> {
    await this.db.exec(
      'INSERT INTO charts (id, user_id, name, kind, project_ids, property_id, created_at) VALUES ($1, $2, $3, $4, $5::uuid[], $6, $7)',
      [c.id, c.userId, c.name, c.kind, c.projectIds, c.propertyId, c.createdAt],
    );
  }

  async update(c: ChartRecord): Promise<void> {
    await this.db.exec('UPDATE charts SET name = $3, project_ids = $4::uuid[], property_id = $5 WHERE user_id = $1 AND id = $2', [
      c.userId,
      c.id,
      c.name,
      c.projectIds,
      c.propertyId,
    ]);
  }

  async delete(userId: string, chartId: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM charts WHERE user_id = $1 AND id = $2', [userId, chartId])).count > 0;
  }

  /** Those of `projectIds` the person is a member of. */
  async memberProjects(userId: string, projectIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ project_id: string }>('SELECT project_id FROM members WHERE user_id = $1 AND project_id = ANY($2::uuid[])', [
      userId,
      projectIds,
    ]);
    return new Set(rows.map((r) => r.project_id));
  }

  /** The projects of every chart of the person that the person is still a member of. */
  async memberProjectsOfCharts(userId: string): Promise<Set<string>> {
    const rows = await this.db.query<{ project_id: string }>(
      `SELECT m.project_id FROM members m WHERE m.user_id = $1
          AND EXISTS (SELECT 1 FROM charts c WHERE c.user_id = $1 AND m.project_id = ANY(c.project_ids))`,
      [userId],
    );
    return new Set(rows.map((r) => r.project_id));
  }

  /** A property of one of `projectIds`, with its options in order (a flow chart's). */
  async property(propertyId: string, projectIds: readonly string[]): Promise<FlowProperty | null> {
    return this.db.one<FlowProperty>(
      `SELECT p.id, p.project_id AS "projectId", p.name, p.type,
              COALESCE((SELECT json_agg(json_build_object('id', o.id, 'name', o.name) ORDER BY o.position COLLATE "C", o.id)
                          FROM options o WHERE o.project_id = p.project_id AND o.property_id = p.id), '[]') AS options
         FROM properties p WHERE p.id = $1 AND p.project_id = ANY($2::uuid[])`,
      [propertyId, projectIds],
    );
  }
}

export interface FlowProperty {
  id: string;
  projectId: string;
  name: string;
  type: string;
  options: { id: string; name: string }[];
}

export type { ChartKind };
