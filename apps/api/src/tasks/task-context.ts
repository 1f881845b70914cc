import { Injectable } from '@nestjs/common';
import { Database } from '@board/persistence';
import { DoneWhen } from '@board/tasks';

export interface ProjectFacts {
  key: string;
  doneWhen: DoneWhen | null;
}

/** The few project facts task reads and writes need: the key (task keys) and doneWhen (what is over). */
@Injectable()
export class ProjectFactsQuery {
  constructor(private readonly db: Database) {}

  async load(projectId: string): Promise<ProjectFacts> {
    const row = await this.db.single<{ key: string; done_when: DoneWhen | null }>('SELECT key, done_when FROM projects WHERE id = $1', [projectId], {
      prepare: true,
    });
    return { key: row.key, doneWhen: row.done_when };
  }
}
