import { Injectable } from '@nestjs/common';
import { Clock, fail, notice, WriteEvent } from '@board/kernel';
import { budgetSpent, RunRepository, UsageRepository } from '@board/runs';

/** The UTC day a cost is booked on and a budget is counted for. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * A project's daily budget (extensions § 1.4): claims are refused while the day's cost is at or
 * above it, and running runs are asked to pause when it is reached. Used inside the writes of
 * reports, claims and the project's settings, so its changes commit with them.
 */
@Injectable()
export class BudgetService {
  constructor(
    private readonly runs: RunRepository,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
  ) {}

  /** Refuses a claim while the day's cost is at or above the budget. */
  async assertOpen(projectId: string): Promise<void> {
    if (budgetSpent(await this.usage.budgetDay(projectId, utcDay(this.clock.now())))) fail('run.budget_spent');
  }

  /** Is the project's budget of today spent? */
  async spent(projectId: string): Promise<boolean> {
    return budgetSpent(await this.usage.budgetDay(projectId, utcDay(this.clock.now())));
  }

  /**
   * Every running run of the project with no word pending is asked to pause (the one word no
   * person writes), with its line, ringing as a control request does. `except`: a run the caller
   * holds in memory and pauses itself. Answers the rings.
   */
  async pauseRunning(projectId: string, except: string | null = null): Promise<WriteEvent[]> {
    const now = this.clock.now();
    const events: WriteEvent[] = [];
    for (const run of await this.runs.runningUnworded(projectId)) {
      if (run.id === except || !run.pauseForBudget(now)) continue;
      await this.runs.save(run);
      events.push(notice({ projectId, scope: 'board', taskId: run.snapshot.taskId, clientId: null }));
    }
    return events;
  }
}
