import type { DoneWhen } from '@board/tasks';

export interface ProjectFacts {
  key: string;
  doneWhen: DoneWhen | null;
}

/** The few project facts task reads and writes need: the key (task keys) and doneWhen (what is over). */
export abstract class ProjectFactsQuery {
  abstract load(projectId: string): Promise<ProjectFacts>;
}
