import { Injectable } from '@nestjs/common';
import {
  findTypeProperty, hasDatedOptions, OptionRecord, OptionView, optionView, PropertyConfig, PropertyConfigView,
  propertyConfigView, PropertyDef, ValueContext,
} from '@board/properties';
import { Database } from '../database';
import { sql } from '../sql';
import { OPTION_COLUMNS } from './options.table';

/** A property as reads show it (the board, settings); the create answer adds projectId and createdAt. */
export interface PropertyRead {
  id: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfigView;
  options: OptionView[];
}

interface PropertyRow {
  id: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfig | null;
}

/**
 * Shapes stored properties and options into the read shape, config read afresh (defaults that
 * no longer hold read as none). Pure given its rows; `context` only matters to person values.
 */
export function shapeProperties(rows: readonly PropertyRow[], options: readonly OptionRecord[], context?: ValueContext): PropertyRead[] {
  const byProperty = new Map<string, OptionRecord[]>();
  for (const o of options) {
    const list = byProperty.get(o.propertyId) ?? [];
    list.push(o);
    byProperty.set(o.propertyId, list);
  }
  const defs: PropertyDef[] = rows.map((r) => ({
    id: r.id, name: r.name, type: r.type, position: r.position, config: r.config ?? {},
    optionIds: new Set((byProperty.get(r.id) ?? []).map((o) => o.id)),
  }));
  const typeProperty = findTypeProperty(defs);
  return defs.map((d) => {
    const dated = hasDatedOptions(d.type, d.config);
    return {
      id: d.id,
      name: d.name,
      type: d.type,
      position: d.position,
      config: propertyConfigView(d, defs, typeProperty, context),
      options: (byProperty.get(d.id) ?? []).map((o) => optionView(o, dated)),
    };
  });
}

/** A project's properties with their options, in display order: two queries. */
@Injectable()
export class PropertyListQuery {
  constructor(private readonly db: Database) {}

  async list(projectId: string): Promise<PropertyRead[]> {
    const [rows, options] = await Promise.all([
      this.db.query<PropertyRow>(sql`SELECT id, name, type, position, config FROM properties WHERE project_id = ${projectId} ORDER BY position COLLATE "C", id`),
      this.db.query<OptionRecord>(sql`SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = ${projectId} ORDER BY position COLLATE "C", id`),
    ]);
    return shapeProperties(rows, options);
  }
}
