import type { AgentTokenView } from './agent-tokens.table';

export type { AgentTokenView };

export interface ProjectView {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role: string;
  doneWhen: { propertyId: string; optionIds: string[] } | null;
  releases: boolean;
  sprints: boolean;
  createdAt: Date;
  dailyBudgetMicros: number | null;
}

export interface MemberView {
  id: string;
  name: string;
  email: string | null;
  color: string;
  emoji: string | null;
  role: string;
  kind: 'human' | 'agent';
}

/** Reads of projects that only show data: one query each, no aggregate. */
export abstract class ProjectQuery {
  /** The caller's projects in the caller's own order, with their live task counts (0 each unless `countTasks`). */
  abstract listFor(userId: string, countTasks: boolean): Promise<(ProjectView & { taskCount: number })[]>;

  /** The project as its member `userId` sees it; null when there is no such project or they are not in it. */
  abstract projectFor(projectId: string, userId: string): Promise<ProjectView | null>;

  abstract member(projectId: string, userId: string): Promise<MemberView | null>;

  abstract tokens(projectId: string): Promise<AgentTokenView[]>;

  abstract rules(projectId: string): Promise<{ text: string; updatedAt: Date | null } | null>;

  /** Live tasks of the project whose open run waits for a person (archived and deleted tasks excluded). */
  abstract waitingRuns(projectId: string): Promise<number>;
}
