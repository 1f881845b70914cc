import type { PropertyRead } from '@board/properties';
import type { DoneWhen } from '@board/tasks';

export interface BoardProject {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role: string;
  doneWhen: DoneWhen | null;
}

/** The settings half of a board read. */
export interface BoardSettings {
  project: BoardProject;
  invites: Record<string, unknown>[];
  members: Record<string, unknown>[];
  properties: PropertyRead[];
  cardView: { rows: Record<string, unknown> };
}

/** The settings half of a board read: project, people, properties, card view (views come from the view store). */
export abstract class BoardQuery {
  /** Null when the project is not there for `userId` (not a member, or no such project). */
  abstract settings(projectId: string, userId: string): Promise<BoardSettings | null>;
}

/**
 * Shipped options, newest first, with the tasks that shipped with them (kept by the ship, so a
 * task that later moves on stays in its entry; archived ones included, deleted ones not): the
 * changelog. Releases off hides it whole; sprints off hides the sprints.
 */
export abstract class ChangelogQuery {
  abstract list(projectId: string): Promise<Record<string, unknown>[]>;
}
