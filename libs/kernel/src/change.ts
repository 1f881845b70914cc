export type ChangeScope = 'board' | 'task' | 'project';

/** A stream notice: that something changed and where, never what. */
export interface Change {
  projectId: string;
  scope: ChangeScope;
  taskId?: string | null;
  /** The writer's `x-service-client` tag, so its own tab can skip the echo. */
  clientId: string | null;
}

/**
 * Announces a change to every instance's stream subscribers, inside the write's transaction: the
 * notice goes out only if the change commits. Only the unit of work's adapter calls it, with the
 * `notice` events a write declared (write-events.ts).
 */
export abstract class ChangeAnnouncer {
  abstract announce(change: Change): Promise<void>;
}
