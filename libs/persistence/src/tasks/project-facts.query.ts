import { Injectable } from '@nestjs/common';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { sql } from '../sql';

export interface ProjectFacts {
  key: string;
  doneWhen: DoneWhen | null;
}

/** The few project facts task reads and writes need: the key (task keys) and doneWhen (what is over). */
@Injectable()
export class ProjectFactsQuery {
  constructor(private readonly db: Database) {}

  async load(projectId: string): Promise<ProjectFacts> {
    const row = await this.db.single<{ key: string; done_when: DoneWhen | null }>(sql`SELECT key, done_when FROM projects WHERE id = ${projectId}`, { prepare: true });
    return { key: row.key, doneWhen: row.done_when };
  }
}
