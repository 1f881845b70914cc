import { QueueRequest, WorkQueue } from '@board/runs';
import { isOver } from '@board/tasks';
import { InMemoryRunRepository } from './run-repository';
import { InMemoryTaskStore } from './tasks';

/**
 * WorkQueue in memory: the first live, unarchived task in rank order that is not over and has no
 * open run. It keeps every request: the rules and order a view gave are the SQL's to apply
 * (test/e2e/agents-at-work.test.ts), so specs assert what was asked.
 */
export class InMemoryWorkQueue extends WorkQueue {
  readonly requests: QueueRequest[] = [];

  constructor(
    private readonly tasks: InMemoryTaskStore,
    private readonly runs: InMemoryRunRepository,
  ) {
    super();
  }

  async take(request: QueueRequest): Promise<string | null> {
    this.requests.push(request);
    const open = new Set([...this.runs.rows.values()].filter((r) => r.projectId === request.projectId && r.endedAt === null).map((r) => r.taskId));
    const first = this.tasks
      .tasksOf(request.projectId)
      .filter((t) => t.deletedAt === null && t.archivedAt === null && !open.has(t.id) && !isOver(t.values, request.doneWhen))
      .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))[0];
    return first?.id ?? null;
  }
}
