import { Injectable } from '@nestjs/common';
import { PropertyConfig, PropertyDef } from '@board/properties';
import { Database } from '../database';

/** A row of `defsLateral`: one property, or all nulls when the project has none. */
export interface DefRow {
  prop_id: string | null;
  prop_name: string;
  prop_type: string;
  prop_position: string;
  prop_config: PropertyConfig;
  option_ids: string[];
  option_names?: string[];
}

/**
 * The project's properties with their option ids (and names, when asked), joined as rows `d` of
 * `DefRow` onto a one-row query: `SELECT …, d.* FROM (…) x ${defsLateral('$1')} ORDER BY ${DEFS_ORDER}`.
 * `p` is the project id's placeholder. Every value check reads its properties through this.
 */
export const defsLateral = (p: string, withNames = false): string => `LEFT JOIN LATERAL (
           SELECT p.id AS prop_id, p.name AS prop_name, p.type AS prop_type, p.position AS prop_position, p.config AS prop_config,
                  COALESCE(array_agg(o.id ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_ids${
                    withNames
                      ? `,
                  COALESCE(array_agg(o.name ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_names`
                      : ''
                  }
             FROM properties p
             LEFT JOIN options o ON o.property_id = p.id AND o.project_id = p.project_id
            WHERE p.project_id = ${p}
            GROUP BY p.id) d ON true`;

/** Display order of the properties of `defsLateral`. */
export const DEFS_ORDER = `d.prop_position COLLATE "C", d.prop_id`;

/** The property definitions among rows of `defsLateral`. */
export function defsOf(rows: readonly DefRow[]): PropertyDef[] {
  return rows
    .filter((r) => r.prop_id !== null)
    .map((r) => ({ id: r.prop_id!, name: r.prop_name, type: r.prop_type, position: r.prop_position, config: r.prop_config ?? {}, optionIds: new Set(r.option_ids) }));
}

/** A project's properties with their option ids, in display order: what value checks need. One query. */
@Injectable()
export class PropertyDefsQuery {
  constructor(private readonly db: Database) {}

  async load(projectId: string): Promise<PropertyDef[]> {
    const rows = await this.db.query<DefRow>(`SELECT d.* FROM (SELECT 1) one ${defsLateral('$1')} ORDER BY ${DEFS_ORDER}`, [projectId], { prepare: true });
    return defsOf(rows);
  }

  /** The properties (as `load`) and the user ids of the project's members, agents included: what every value write checks against, in one round trip. */
  async loadWithMembers(projectId: string): Promise<{ defs: PropertyDef[]; memberIds: Set<string> }> {
    const rows = await this.db.query<DefRow & { member_ids: string[] }>(
      `SELECT m.member_ids, d.*
         FROM (SELECT COALESCE(array_agg(user_id), '{}') AS member_ids FROM members WHERE project_id = $1) m
         ${defsLateral('$1')}
        ORDER BY ${DEFS_ORDER}`,
      [projectId],
      { prepare: true },
    );
    return { defs: defsOf(rows), memberIds: new Set(rows[0]?.member_ids ?? []) };
  }
}
