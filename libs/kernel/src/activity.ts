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
 * Writes feed lines with their webhook outbox rows, inside the write's transaction. Only the unit
 * of work's adapter calls it, with the `feedLine` events a write declared (write-events.ts):
 * application code never records by hand.
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
