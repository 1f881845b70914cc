import type { BoardTask } from '../tasks/task.query';

export interface ListSummary {
  id: string;
  name: string;
  count: number;
  createdAt: Date;
}

export type ListedTask = BoardTask & { projectId: string; projectKey: string; archived: boolean };

/**
 * Reads of a person's lists (the reader owns the list). A list shows the tasks the reader can see:
 * in it, not deleted, in a project the reader is a member of; the others stay in the list, hidden.
 */
export abstract class ListQuery {
  abstract summaries(userId: string): Promise<ListSummary[]>;

  abstract summary(userId: string, listId: string): Promise<ListSummary | null>;

  /** The list and its visible tasks in the list's order, each in the board's task shape plus its project. */
  abstract read(userId: string, listId: string): Promise<{ list: ListSummary; tasks: ListedTask[] } | null>;
}
