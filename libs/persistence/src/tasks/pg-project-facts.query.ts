import { Injectable } from '@nestjs/common';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { sql } from '../sql';
import { ProjectFacts, ProjectFactsQuery } from './project-facts.query';

/** The project's facts as one prepared statement. */
@Injectable()
export class PgProjectFactsQuery extends ProjectFactsQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async load(projectId: string): Promise<ProjectFacts> {
    const row = await this.db.single<{ key: string; done_when: DoneWhen | null }>(sql`SELECT key, done_when FROM projects WHERE id = ${projectId}`, { prepare: true });
    return { key: row.key, doneWhen: row.done_when };
  }
}
