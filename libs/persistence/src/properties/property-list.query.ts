import { Injectable } from '@nestjs/common';
import { OptionRecord, PropertyRead, PropertyRow, shapeProperties } from '@board/properties';
import { Database } from '../database';
import { sql } from '../sql';
import { OPTION_COLUMNS } from './options.table';

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
