export type ChangeScope = 'board' | 'task' | 'project';

/** A stream notice: that something changed and where, never what. */
export interface Change {
  projectId: string;
  scope: ChangeScope;
  taskId?: string | null;
  /** The writer's `x-service-client` tag, so its own tab can skip the echo. */
  clientId: string | null;
}
