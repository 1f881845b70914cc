import { Injectable } from '@nestjs/common';
import type { CsvTask } from '@board/views';
import { Database } from '../database';
import { sql } from '../sql';
import { ViewCsvQuery } from './view-csv.query';

interface CsvTaskRow {
  number: number;
  title: string;
  values: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The CSV's reads, one statement each. */
@Injectable()
export class PgViewCsvQuery extends ViewCsvQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** The tasks `ids` of the project, in the order of `ids`, as one statement. */
  async tasks(projectId: string, ids: readonly string[]): Promise<CsvTask[]> {
    const rows = await this.db.query<CsvTaskRow>(
      sql`SELECT t.number, t.title, t."values", t.created_at, t.updated_at
            FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS i(id, ord)
            JOIN tasks t ON t.project_id = ${projectId} AND t.id = i.id
           ORDER BY i.ord`,
    );
    return rows.map((r) => ({ number: r.number, title: r.title, values: r.values, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  /** Names of the project's options and members by id: what the values name. */
  async names(projectId: string): Promise<Map<string, string>> {
    const rows = await this.db.query<{ id: string; name: string }>(
      sql`SELECT id, name FROM options WHERE project_id = ${projectId}
          UNION ALL
          SELECT u.id, u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ${projectId}`,
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
