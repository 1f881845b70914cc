import { Run } from './run';

export abstract class RunRepository {
  /** Opens a run; a handed-over run of the task is closed as done in the same statement. Refuses a second open run with run.already_open. */
  abstract open(run: Run): Promise<{ handedOverClosed: string | null }>;
  abstract find(projectId: string, id: string, lock?: boolean): Promise<Run | null>;
  abstract save(run: Run): Promise<void>;
  abstract saveBeat(run: Run): Promise<void>;
  /** Open running or paused runs past their lease, locked and skipped by other sweepers. */
  abstract overdue(now: Date, projectId: string | null, limit: number): Promise<Run[]>;
  /** Is any run past its lease? (No locks: a hint before taking them.) */
  abstract anyOverdue(now: Date, projectId: string | null): Promise<boolean>;
  abstract openOnTask(projectId: string, taskId: string, lock?: boolean): Promise<Run | null>;
}
