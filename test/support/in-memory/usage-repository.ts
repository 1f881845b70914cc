import { BudgetDay, UsageIncrease, UsageRepository } from '@board/runs';

/** UsageRepository in memory: bookings by project and UTC day, and each project's daily budget as the spec sets it. */
export class InMemoryUsageRepository extends UsageRepository {
  readonly booked: { projectId: string; runId: string; agentId: string | null; day: string; increase: UsageIncrease }[] = [];
  readonly budgets = new Map<string, number>();

  async book(input: { projectId: string; runId: string; agentId: string | null; day: string; increase: UsageIncrease }): Promise<number> {
    this.booked.push({ ...input, increase: { ...input.increase } });
    return this.costOf(input.projectId, input.day);
  }

  async budgetDay(projectId: string, day: string): Promise<BudgetDay> {
    return { budgetMicros: this.budgets.get(projectId) ?? null, costMicros: this.costOf(projectId, day) };
  }

  private costOf(projectId: string, day: string): number {
    return this.booked.filter((b) => b.projectId === projectId && b.day === day).reduce((sum, b) => sum + b.increase.costMicros, 0);
  }
}
