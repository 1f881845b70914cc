import { BoardExportPlan } from './board-export-plan';
import { ExistingProperty, ImportPlan } from './import-plan';

/** What an import maps onto, read at once. */
export interface ImportHead {
  key: string;
  lastTaskRank: string | null;
  properties: ExistingProperty[];
  /** Of the named source ids, those already imported: source id → task number. */
  imported: Map<string, number>;
  /** How many tasks the project holds, live and archived (the limit counts them). */
  taskCount: number;
}

/**
 * The reads and writes of an import (port; the adapter is in libs/persistence). Both run inside
 * the caller's transaction, under the project lock.
 */
export abstract class ImportRepository {
  /** The project's key, last task rank, properties and task count, and which of `sourceIds` came in already; null without the project. */
  abstract head(projectId: string, sourceIds: string[]): Promise<ImportHead | null>;
  /**
   * Writes the plan: properties, options, tasks with their numbers and sources, checklists and
   * comments, in a fixed number of statements whatever the number of cards. Its `import` feed
   * lines and their one webhook ring are the caller's events (the unit of work writes them).
   */
  abstract write(projectId: string, actorId: string, plan: ImportPlan, now: Date): Promise<void>;
}

/** The reads and writes of importing a project export (port), inside the caller's transaction, under the project lock. */
export abstract class BoardExportRepository {
  /** The project's members (to match people by email) and whether it holds any task, live, archived or deleted; null without the project. */
  abstract head(projectId: string): Promise<{ members: { id: string; email: string | null }[]; hasTasks: boolean } | null>;
  /** Replaces the project's properties, options, views, card view and rules, and writes every row of the plan, set-based. */
  abstract write(projectId: string, plan: BoardExportPlan): Promise<void>;
}
