import type { Filters, SortSpec } from '@board/filters';
import type { PropertyDef } from '@board/properties';
import { Run, UsageIncrease } from './run';

/** A run as read with the version of its stored row (`RunRepository.findVersioned`). */
export interface VersionedRun {
  run: Run;
  version: string;
}

export abstract class RunRepository {
  /**
   * Opens a run; a handed-over run of the task is closed as done in the same statement. Takes the
   * task's queue lock first (waiting for a `runs/next` that holds it). Refuses a second open run
   * with run.already_open.
   */
  abstract open(run: Run): Promise<{ handedOverClosed: string | null }>;
  abstract find(projectId: string, id: string, lock?: boolean): Promise<Run | null>;
  /**
   * The run, unlocked, with the version of its stored row (opaque; any committed write to the
   * row changes it): a report writes it back only while the row is still at that version.
   */
  abstract findVersioned(projectId: string, id: string): Promise<VersionedRun | null>;
  abstract save(run: Run): Promise<void>;
  abstract saveBeat(run: Run): Promise<void>;
  /** Open running or paused runs past their lease, locked and skipped by other sweepers. */
  abstract overdue(now: Date, projectId: string | null, limit: number): Promise<Run[]>;
  /** Is any run past its lease? (No locks: a hint before taking them.) */
  abstract anyOverdue(now: Date, projectId: string | null): Promise<boolean>;
  abstract openOnTask(projectId: string, taskId: string, lock?: boolean): Promise<Run | null>;
  /** The project's open runs with status running and no word pending, locked: those a spent budget pauses. */
  abstract runningUnworded(projectId: string): Promise<Run[]>;
}

/** What makes a task eligible for an agent's `runs/next` beyond being live, not over, free and unblocked. */
export interface QueueRequest {
  projectId: string;
  agentId: string;
  doneWhen: { propertyId: string; optionIds: string[] } | null;
  properties: readonly PropertyDef[];
  /** A view's shared filters (never a lens), or none. */
  filters: Filters | null;
  /** A view's shared sort; null: rank. */
  sort: SortSpec | null;
}

/** The work queue: hands one eligible task to one caller at a time, never making a caller wait. */
export abstract class WorkQueue {
  /**
   * The first eligible task in order that no other transaction holds, held (its queue lock) until
   * this transaction ends; null when none is left.
   */
  abstract take(request: QueueRequest): Promise<string | null>;
}

/** A project's day of cost against its daily budget. */
export interface BudgetDay {
  budgetMicros: number | null;
  costMicros: number;
}

/** Usage booked by UTC day: each increase of a run's totals on the day of the report that made it. */
export abstract class UsageRepository {
  /** Books an increase; answers the project's cost of that day after it (concurrent bookings line up). */
  abstract book(input: { projectId: string; runId: string; agentId: string | null; day: string; increase: UsageIncrease }): Promise<number>;
  abstract budgetDay(projectId: string, day: string): Promise<BudgetDay>;
}

/** Is the day's budget spent? (No budget: never.) */
export const budgetSpent = (day: BudgetDay): boolean => day.budgetMicros !== null && day.costMicros >= day.budgetMicros;
