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
}

/**
 * The one seam every write calls to leave its feed line. It runs inside the write's
 * transaction; the events work hangs the stream notice and webhook outbox rows here too.
 */
export abstract class ActivityRecorder {
  abstract record(line: ActivityLine): Promise<void>;

  /** Many lines of one project in order, as one write where the adapter can (bulk edits). */
  async recordMany(lines: readonly ActivityLine[]): Promise<void> {
    for (const line of lines) await this.record(line);
  }

  /**
   * Many lines of one project as one write that rings each webhook once, about the project
   * (no task), rather than once per line (an option ship). A webhook's ring carries the first of
   * `kinds` it listens to; a webhook listening to none of them hears nothing.
   */
  abstract recordRingingOnce(lines: readonly ActivityLine[], kinds: readonly ActivityKind[]): Promise<void>;
}
