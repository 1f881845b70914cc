import type { RunQuery } from '@board/persistence';
import { LOG_READ, runProgress } from '@board/runs';
import { InMemoryRunRepository } from './run-repository';

/** The run read model over the in-memory runs, typed to RunQuery's methods; `asQuery()` hands it to a service. */
export class InMemoryRunQuery implements Pick<RunQuery, 'full' | 'past' | 'startOf'> {
  constructor(private readonly runs: InMemoryRunRepository) {}

  asQuery(): RunQuery {
    return this as unknown as RunQuery;
  }

  async full(projectId: string, runId: string) {
    const row = this.runs.rows.get(runId);
    if (row?.projectId !== projectId) return null;
    const { steps, log, ...run } = structuredClone(row);
    return { ...run, ...runProgress({ steps, log }), steps, log: log.slice(-LOG_READ) };
  }

  async past(projectId: string, taskId: string, limit: number, before?: { startedAt: Date; id: string }) {
    const rows = [...this.runs.rows.values()]
      .filter((r) => r.projectId === projectId && r.taskId === taskId && r.endedAt !== null)
      .filter((r) => !before || r.startedAt.getTime() < before.startedAt.getTime() || (r.startedAt.getTime() === before.startedAt.getTime() && r.id < before.id))
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1))
      .map(({ id, goal, step, status, startedAt, endedAt }) => ({ id, goal, step, status, startedAt, endedAt }));
    return { runs: rows.slice(0, limit), more: rows.length > limit };
  }

  async startOf(projectId: string, taskId: string, runId: string): Promise<{ startedAt: Date; id: string } | null> {
    const row = this.runs.rows.get(runId);
    return row?.projectId === projectId && row.taskId === taskId ? { startedAt: row.startedAt, id: row.id } : null;
  }
}
