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
      { prepare: true },
    );
    return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, position: r.position, config: r.config ?? {}, optionIds: new Set(r.option_ids) }));
  }

  /** The properties (as `load`) and the user ids of the project's members, agents included: what every value write checks against, in one round trip. */
  async loadWithMembers(projectId: string): Promise<{ defs: PropertyDef[]; memberIds: Set<string> }> {
    const rows = await this.db.query<{
      member_ids: string[];
      id: string | null;
      name: string;
      type: string;
      position: string;
      config: PropertyConfig;
      option_ids: string[];
    }>(
      `SELECT m.member_ids, d.*
         FROM (SELECT COALESCE(array_agg(user_id), '{}') AS member_ids FROM members WHERE project_id = $1) m
         LEFT JOIN LATERAL (
           SELECT p.id, p.name, p.type, p.position, p.config,
                  COALESCE(array_agg(o.id ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_ids
             FROM properties p
             LEFT JOIN options o ON o.property_id = p.id AND o.project_id = p.project_id
            WHERE p.project_id = $1
            GROUP BY p.id) d ON true
        ORDER BY d.position COLLATE "C", d.id`,
      [projectId],
      { prepare: true },
    );
    const defs = rows
      .filter((r) => r.id !== null)
      .map((r) => ({ id: r.id!, name: r.name, type: r.type, position: r.position, config: r.config ?? {}, optionIds: new Set(r.option_ids) }));
    return { defs, memberIds: new Set(rows[0]?.member_ids ?? []) };
  }
}
