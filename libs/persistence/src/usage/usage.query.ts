export interface UsageCounts {
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  runs: number;
}

export interface AgentUsage extends UsageCounts {
  agent: { id: string; name: string; color: string; emoji: string | null };
  /** The agent's costMicros per day of the range, in order. */
  daily: number[];
}

/** A project's usage over a range of UTC days, in total and by agent (removed agents still listed). */
export abstract class UsageQuery {
  /** `days` in order, the first and last bounding the range. */
  abstract read(projectId: string, days: readonly string[]): Promise<{ total: UsageCounts; agents: AgentUsage[] }>;
}
