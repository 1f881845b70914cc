import { fail } from '@board/kernel';
import { Run, RunProps, RunRepository } from '@board/runs';

/** RunRepository in memory: runs as snapshots (a change is seen once saved); one open run per task. */
export class InMemoryRunRepository extends RunRepository {
  readonly rows = new Map<string, RunProps>();
  /** Beats saved alone (`saveBeat`), by run id. */
  readonly beats: string[] = [];
  /** Each run's row version: a save gives it a new one (what `xmin` is in PostgreSQL). */
  readonly versions = new Map<string, number>();

  async open(run: Run): Promise<{ handedOverClosed: string | null }> {
    const { projectId, taskId } = run.snapshot;
    const open = [...this.rows.values()].find((r) => r.projectId === projectId && r.taskId === taskId && r.endedAt === null);
    let handedOverClosed: string | null = null;
    if (open?.status === 'handed_over') {
      this.rows.set(open.id, { ...open, status: 'done', endedAt: run.snapshot.startedAt });
      handedOverClosed = open.id;
    } else if (open) fail('run.already_open');
    this.put(run);
    return { handedOverClosed };
  }

  async find(projectId: string, id: string): Promise<Run | null> {
    const row = this.rows.get(id);
    return row?.projectId === projectId ? Run.restore(structuredClone(row)) : null;
  }

  async findVersioned(projectId: string, id: string): Promise<{ run: Run; version: string } | null> {
    const run = await this.find(projectId, id);
    return run ? { run, version: String(this.versions.get(id) ?? 0) } : null;
  }

  async save(run: Run): Promise<void> {
    this.put(run);
  }

  async saveBeat(run: Run): Promise<void> {
    this.beats.push(run.id);
    this.put(run);
  }

  async overdue(now: Date, projectId: string | null, limit: number): Promise<Run[]> {
    return this.all(projectId).filter((r) => r.isOverdue(now)).slice(0, limit);
  }

  async anyOverdue(now: Date, projectId: string | null): Promise<boolean> {
    return (await this.overdue(now, projectId, 1)).length > 0;
  }

  async openOnTask(projectId: string, taskId: string): Promise<Run | null> {
    return this.all(projectId).find((r) => r.snapshot.taskId === taskId && r.isOpen) ?? null;
  }

  async runningUnworded(projectId: string): Promise<Run[]> {
    return this.all(projectId).filter((r) => r.isOpen && r.status === 'running' && r.control === null);
  }

  /** Set-up: a run as stored. */
  put(run: Run): Run {
    this.rows.set(run.id, structuredClone(run.snapshot) as RunProps);
    this.versions.set(run.id, (this.versions.get(run.id) ?? 0) + 1);
    return run;
  }

  private all(projectId: string | null): Run[] {
    return [...this.rows.values()].filter((r) => projectId === null || r.projectId === projectId).map((r) => Run.restore(structuredClone(r)));
  }
}
