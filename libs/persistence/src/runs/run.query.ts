import type { StatementWrite } from '@board/kernel';
import type { Run, runProgress, RunProps } from '@board/runs';

/** A run row as read (its plan and log typed, the rest as selected). */
export type RunRead = Pick<RunProps, 'steps' | 'log'> & Record<string, unknown>;

/** How far a run got, counted from its plan and log (`runProgress`). */
export type RunProgress = ReturnType<typeof runProgress>;

/** A run on the board's cards: its fields and progress, no plan, no log. */
export type OpenRunView = Omit<RunRead, 'steps' | 'log'> & RunProgress;

/** A run in full: its fields and progress, the plan and the last log lines. */
export type FullRunView = OpenRunView & Pick<RunProps, 'steps' | 'log'>;

/** Run read models: the board's open runs, a full run, past runs by page. */
export abstract class RunQuery {
  /** Open runs of the project (of live tasks) with their card fields (no plan, no log). */
  abstract openRuns(projectId: string): Promise<OpenRunView[]>;

  /** One run in full: the plan and the last 40 log lines, oldest first. */
  abstract full(projectId: string, runId: string): Promise<FullRunView | null>;

  /**
   * A write that reads: saves the run in one statement that lands only while its row is still at
   * `version` (`RunRepository.findVersioned`: compare and set), and answers the run in full as
   * that statement left it, or null when it did not land. The unit of work adds the events.
   */
  abstract saveIfUnchangedReadingFull(run: Run, version: string): StatementWrite<FullRunView | null>;

  /** The open run of a task, in full. */
  abstract openOnTask(projectId: string, taskId: string): Promise<FullRunView | null>;

  /** Closed runs of a task, newest start first, optionally before a run; `more` tells whether there are more. */
  abstract past(projectId: string, taskId: string, limit: number, before?: { startedAt: Date; id: string }): Promise<{ runs: Record<string, unknown>[]; more: boolean }>;

  abstract startOf(projectId: string, taskId: string, runId: string): Promise<{ startedAt: Date; id: string } | null>;
}
