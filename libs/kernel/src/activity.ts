export const ACTIVITY_KINDS = [
  'created', 'title', 'description', 'value', 'checklist', 'comment', 'run', 'archive',
  'link', 'deleted', 'reset', 'import', 'attachment', 'rules',
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Kinds about the project rather than one task; a task read leaves them out. */
export const PROJECT_ACTIVITY_KINDS: readonly ActivityKind[] = ['reset', 'rules'];

export interface ActivityLine {
  projectId: string;
  taskId: string | null;
  actorId: string | null;
  kind: ActivityKind;
  data: Record<string, unknown>;
  /**
   * The people a write newly put into the task's person properties (a value write, bulk values, a
   * create, a move; never an import), by property. Not stored and not shown in the feed: what the
   * unit of work derives notifications from.
   */
  assigned?: readonly AssignedPeople[];
}

export interface AssignedPeople {
  propertyId: string;
  propertyName: string;
  userIds: readonly string[];
}
