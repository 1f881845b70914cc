import { Injectable } from '@nestjs/common';
import { OptionRecord, PropertyRead, PropertyRow, shapeProperties } from '@board/properties';
import { Database } from '../database';
import { sql } from '../sql';
import { OPTION_COLUMNS } from './options.table';
import { PropertyListQuery } from './property-list.query';

/** The property list in two queries (properties, options), shaped by `shapeProperties`. */
@Injectable()
export class PgPropertyListQuery extends PropertyListQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async list(projectId: string): Promise<PropertyRead[]> {
    const [rows, options] = await Promise.all([
      this.db.query<PropertyRow>(sql`SELECT id, name, type, position, config FROM properties WHERE project_id = ${projectId} ORDER BY position COLLATE "C", id`),
      this.db.query<OptionRecord>(sql`SELECT ${OPTION_COLUMNS} FROM options WHERE project_id = ${projectId} ORDER BY position COLLATE "C", id`),
    ]);
    return shapeProperties(rows, options);
  }
}
