import { Injectable } from '@nestjs/common';
import { PropertyConfig, PropertyDef } from '@board/properties';
import { Database } from '../database';
import { compile, raw, Sql, sql } from '../sql';
import { PropertyDefsQuery } from './property-defs.query';

/** One property of `defsJson`. */
export interface DefJson {
  id: string;
  name: string;
  type: PropertyDef['type'];
  position: string;
  config: PropertyConfig | null;
  optionIds: string[];
  optionNames?: string[];
}

const optionsOf = (column: 'id' | 'name') =>
  raw(`COALESCE((SELECT json_agg(o.${column} ORDER BY o.position COLLATE "C", o.id) FROM options o WHERE o.project_id = pp.project_id AND o.property_id = pp.id), '[]')`);
const OPTION_IDS = optionsOf('id');
const OPTION_NAMES = sql`, 'optionNames', ${optionsOf('name')}`;
const NOTHING = raw('');

/**
 * The project's properties in display order with their option ids (and names, when asked), as one
 * JSON array (`DefJson[]`): an expression for a select list, `p` an SQL expression of the project
 * id (a column, so that the fragment is built once). Given text (the id's placeholder, in the
 * statements tasks/ still number by hand, until they are templates), it answers text.
 * One JSON value instead of a row per property: the driver parses it natively, where rows
 * repeating the other columns and text arrays cost twice the service's CPU (bench/README.md,
 * finding 13). Every value check reads its properties through this.
 */
export function defsJson(p: Sql, withNames?: boolean): Sql;
export function defsJson(p: string, withNames?: boolean): string;
export function defsJson(p: Sql | string, withNames = false): Sql | string {
  const fragment = sql`(
  SELECT COALESCE(json_agg(json_build_object('id', pp.id, 'name', pp.name, 'type', pp.type, 'position', pp.position, 'config', pp.config,
                                             'optionIds', ${OPTION_IDS}${withNames ? OPTION_NAMES : NOTHING})
                           ORDER BY pp.position COLLATE "C", pp.id), '[]')
    FROM properties pp WHERE pp.project_id = ${typeof p === 'string' ? raw(p) : p})`;
  return typeof p === 'string' ? compile(fragment).text : fragment;
}

/** The property definitions of a `defsJson` value. */
export function defsFromJson(list: readonly DefJson[]): PropertyDef[] {
  return list.map((d) => ({ id: d.id, name: d.name, type: d.type, position: d.position, config: d.config ?? {}, optionIds: new Set(d.optionIds) }));
}

/** The project's id as `project.id`, the one value of a statement that reads it through `PROJECT_DEFS`. */
const FROM_PROJECT = (projectId: string) => sql`FROM (SELECT ${projectId}::uuid AS id) project`;
const PROJECT_DEFS = defsJson(raw('project.id'));

/** The properties as one `defsJson` value: one query. */
@Injectable()
export class PgPropertyDefsQuery extends PropertyDefsQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async load(projectId: string): Promise<PropertyDef[]> {
    const row = await this.db.single<{ defs: DefJson[] }>(sql`SELECT ${PROJECT_DEFS} AS defs ${FROM_PROJECT(projectId)}`, { prepare: true });
    return defsFromJson(row.defs);
  }

  /** One round trip. */
  async loadWithMembers(projectId: string): Promise<{ defs: PropertyDef[]; memberIds: Set<string> }> {
    const row = await this.db.single<{ defs: DefJson[]; member_ids: string[] }>(
      sql`SELECT ${PROJECT_DEFS} AS defs, (SELECT COALESCE(json_agg(user_id), '[]') FROM members WHERE project_id = project.id) AS member_ids
          ${FROM_PROJECT(projectId)}`,
      { prepare: true },
    );
    return { defs: defsFromJson(row.defs), memberIds: new Set(row.member_ids) };
  }
}
