import type { FullRunView, OpenRunView, RunQuery } from '@board/persistence';
import { LOG_READ, Run, runProgress, RunProps } from '@board/runs';
import { InMemoryStatement } from '../recording-unit-of-work';
import { InMemoryRunRepository } from './run-repository';

/** The run read model over the in-memory runs (the agent is not this world's: only its id). */
export class InMemoryRunQuery implements RunQuery {
  constructor(private readonly runs: InMemoryRunRepository) {}

  async openRuns(projectId: string): Promise<OpenRunView[]> {
    return [...this.runs.rows.values()]
      .filter((r) => r.projectId === projectId && r.endedAt === null)
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((row) => {
        const { steps, log, ...run } = structuredClone(row);
        return { ...run, ...runProgress({ steps, log }) };
      });
  }

  async full(projectId: string, runId: string): Promise<FullRunView | null> {
    const row = this.runs.rows.get(runId);
    return row?.projectId === projectId ? fullRun(row) : null;
  }

  /** Lands only while the run's version is the one read, as the statement's compare and set does. */
  saveIfUnchangedReadingFull(run: Run, version: string): InMemoryStatement<FullRunView | null> {
    return new InMemoryStatement(() => {
      const row = this.runs.rows.get(run.id);
      if (!row || row.projectId !== run.snapshot.projectId || String(this.runs.versions.get(run.id) ?? 0) !== version) return { answer: null, landed: false };
      this.runs.put(run);
      return { answer: fullRun(run.snapshot as RunProps), landed: true };
    });
  }

  async openOnTask(projectId: string, taskId: string): Promise<FullRunView | null> {
    const row = [...this.runs.rows.values()].find((r) => r.projectId === projectId && r.taskId === taskId && r.endedAt === null);
    return row ? fullRun(row) : null;
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

function fullRun(row: RunProps): FullRunView {
  const { steps, log, ...run } = structuredClone(row);
  return { ...run, ...runProgress({ steps, log }), steps, log: log.slice(-LOG_READ) };
}
