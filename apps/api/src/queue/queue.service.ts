import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { cleanFilters, cleanSort, Filters, SortSpec } from '@board/filters';
import { Clock, fail, silent, UnitOfWork, withEvents } from '@board/kernel';
import { ProjectFactsQuery, PropertyDefsQuery } from '@board/persistence';
import { Run, WorkQueue } from '@board/runs';
import { ViewRepository } from '@board/views';
import { ProjectCaller } from '../auth/auth-context';
import { BudgetService } from '../runs/budget.service';
import { RunsService } from '../runs/runs.service';
import { TasksService } from '../tasks/tasks.service';
import type { NextRunBody } from './queue.dto';

/**
 * The work queue (extensions § 1.1): an agent asks for the next task and gets it claimed, as a
 * claim of that task would, or nothing. Agents asking at once never get the same task and never
 * wait for each other (WorkQueue).
 */
@Injectable()
export class QueueService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queue: WorkQueue,
    private readonly views: ViewRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly facts: ProjectFactsQuery,
    private readonly budget: BudgetService,
    private readonly runs: RunsService,
    private readonly tasks: TasksService,
    private readonly clock: Clock,
  ) {}

  async next(caller: ProjectCaller, body: NextRunBody) {
    const projectId = caller.projectId;
    const taken = await this.uow.write(async () => {
      const properties = await this.defs.load(projectId);
      let filters: Filters | null = null;
      let sort: SortSpec | null = null;
      if (body.viewId) {
        // The view's shared rules and order, never a lens.
        const view = await this.views.find(projectId, body.viewId, null);
        if (!view) fail('view.not_found');
        filters = cleanFilters(view.filters ?? { rules: [] }, { properties });
        sort = view.sort ? cleanSort(view.sort, properties) : null;
      }
      await this.budget.assertOpen(projectId);
      const { doneWhen } = await this.facts.load(projectId);
      const taskId = await this.queue.take({ projectId, agentId: caller.userId, doneWhen, properties, filters, sort });
      if (!taskId) return silent(null);
      const run = Run.claim({ id: randomUUID(), projectId, taskId, agentId: caller.userId, body, now: this.clock.now() });
      const opened = await this.runs.open(caller, run);
      return withEvents({ runId: run.id, taskId }, opened.events);
    });
    if (!taken) return { run: null, task: null };
    const [run, task] = await Promise.all([this.runs.read(projectId, taken.runId), this.tasks.read(caller, taken.taskId)]);
    return { run, task };
  }
}
