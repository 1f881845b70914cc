import type { TaskValues } from '@board/properties';
import type { DoneWhen } from '@board/tasks';
import type { BoardLists } from './board-lists';

export interface BoardTask {
  id: string;
  number: number;
  key: string;
  title: string;
  description: string;
  position: string;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
  values: Record<string, unknown>;
  checklistTotal: number;
  checklistDone: number;
  commentCount: number;
  blockedBy: string[];
  parts: { done: number; total: number } | null;
}

export type ArchivedTask = Pick<BoardTask, 'id' | 'number' | 'key' | 'title' | 'description' | 'position'> & { archivedAt: Date };

/** A task row as board-shaped reads select it (`boardColumns`). */
export type { BoardRow } from './tasks.table';

export interface LinkRow {
  id: string;
  key: string;
  title: string;
  over: boolean;
}

/** A task just created, as `newTask` shapes it for the board. */
export interface CreatedTask {
  id: string;
  number: number;
  title: string;
  description: string;
  position: string;
  values: TaskValues;
  createdAt: Date;
}

/** One task in full: its board fields, links both ways, parent, children, checklist, comments, recent activity. */
export type FullTask = BoardTask & {
  links: { blockedBy: LinkRow[]; blocks: LinkRow[] };
  parent: LinkRow | null;
  children: LinkRow[];
  checklist: Record<string, unknown>[];
  comments: Record<string, unknown>[];
  activity: Record<string, unknown>[];
};

export interface DeletedTasks {
  deleted: { id: string; number: number; key: string; title: string; position: string; deletedAt: Date; goesAt: Date }[];
  windowDays: number;
}

export interface ArchivedHits {
  hits: { task: { id: string; number: number; key: string; title: string; position: string; archivedAt: Date }; snippet: string }[];
  total: number;
}

/** Read models of tasks: a fixed handful of set-based queries per read, never one per task. */
export abstract class TaskQuery {
  /**
   * Live tasks in the one global rank order, and archived ones, with counts, blockers and parts,
   * as JSON. Given the lists built before for this project, only the rows written since are read
   * in full; the others keep their JSON (bench/README.md, finding 12).
   */
  abstract boardLists(projectId: string, projectKey: string, doneWhen: DoneWhen | null, previous: BoardLists | null): Promise<BoardLists>;

  /** A fingerprint of everything the board's task lists are made of: it changes with any committed write to them. */
  abstract boardFingerprint(projectId: string): Promise<string>;

  /** The board fields of some tasks (a create answer, the view read), in rank order. */
  abstract boardTasks(projectId: string, projectKey: string, doneWhen: DoneWhen | null, ids: string[]): Promise<BoardTask[]>;

  /** The board fields of a task just created, which has no parts, links, checklist or comments yet: no query. */
  abstract newTask(task: CreatedTask, projectKey: string, doneWhen: DoneWhen | null): BoardTask;

  /** One task in full; null when it is not live in the project. */
  abstract full(projectId: string, projectKey: string, doneWhen: DoneWhen | null, taskId: string): Promise<FullTask | null>;

  /** Deleted tasks still inside their window, newest first. */
  abstract deleted(projectId: string, projectKey: string, now: Date): Promise<DeletedTasks>;

  /** Archived tasks whose description holds every word of `q`, leaving out those whose key and title already match. */
  abstract searchArchived(projectId: string, projectKey: string, q: string): Promise<ArchivedHits>;
}
