import { Injectable } from '@nestjs/common';
import { PropertyConfig, PropertyDef } from '@board/properties';
import { Database } from '../database';

/** A project's properties with their option ids, in display order: what value checks need. One query. */
@Injectable()
export class PropertyDefsQuery {
  constructor(private readonly db: Database) {}

  async load(projectId: string): Promise<PropertyDef[]> {
    const rows = await this.db.query<{ id: string; name: string; type: string; position: string; config: PropertyConfig; option_ids: string[] }>(
      `SELECT p.id, p.name, p.type, p.position, p.config,
              COALESCE(array_agg(o.id ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_ids
         FROM properties p
         LEFT JOIN options o ON o.property_id = p.id AND o.project_id = p.project_id
        WHERE p.project_id = $1
        GROUP BY p.id
        ORDER BY p.position COLLATE "C", p.id`,
      [projectId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, position: r.position, config: r.config ?? {}, optionIds: new Set(r.option_ids) }));
  }

  /** User ids of the project's members, agents included (person values must name one). */
  async memberIds(projectId: string): Promise<Set<string>> {
    const rows = await this.db.query<{ user_id: string }>('SELECT user_id FROM members WHERE project_id = $1', [projectId]);
    return new Set(rows.map((r) => r.user_id));
  }
}
