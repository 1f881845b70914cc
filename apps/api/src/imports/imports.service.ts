import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createdLineData } from '@board/charts';
import { ActivityLine, Clock, fail, feedLinesRingingOnce, notice, silent, UnitOfWork, withEvents } from '@board/kernel';
import { checkProjectRoom } from '@board/tasks';
import { ImportContext, ImportPreview, ImportRepository, planImport, Skipped, TrelloBoard } from '@board/imports';
import type { ProjectCaller } from '../auth/auth-context';

@Injectable()
export class ImportsService {
  constructor(
    private readonly store: ImportRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** What an import of this export would do now; writes nothing. */
  async preview(caller: ProjectCaller, board: TrelloBoard): Promise<ImportPreview> {
    const { context, taskCount } = await this.context(caller.projectId, board);
    const plan = planImport(board, context);
    // The preview refuses as the import would: nothing is written by either.
    checkProjectRoom(taskCount, plan.tasks.length);
    return plan.preview;
  }

  /**
   * The whole import in one transaction under the project lock (numbers and ranks continue the
   * project's, and the skip check sees every import before it): all of it lands or none of it.
   * One `board` stream ring and one `import` webhook ring, whatever the number of cards.
   */
  async import(caller: ProjectCaller, board: TrelloBoard): Promise<{ imported: number; skipped: Skipped[] }> {
    return this.uow.write(
      async () => {
        const { context, taskCount } = await this.context(caller.projectId, board);
        const plan = planImport(board, context);
        // Under the project lock, which every write that adds tasks takes: the count cannot move meanwhile.
        checkProjectRoom(taskCount, plan.tasks.length);
        const answer = { imported: plan.tasks.length, skipped: plan.preview.skipped };
        if (plan.tasks.length === 0) return silent(answer);
        await this.store.write(caller.projectId, caller.userId, plan, this.clock.now());
        // One `import` line per task, and one ring of each webhook for the whole import. Each line
        // is its task's creation for charts: it carries its selects as a created line does.
        const defs = [...context.properties, ...plan.properties];
        const lines: ActivityLine[] = plan.tasks.map((task) => ({
          projectId: caller.projectId,
          taskId: task.id,
          actorId: caller.userId,
          kind: 'import',
          data: { ...createdLineData(task.values, defs), sourceId: task.sourceId },
        }));
        return withEvents(answer, feedLinesRingingOnce(lines, ['import']), notice({ projectId: caller.projectId, scope: 'board', clientId: caller.clientId }));
      },
      { lockProject: caller.projectId },
    );
  }

  private async context(projectId: string, board: TrelloBoard): Promise<{ context: ImportContext; taskCount: number }> {
    const head = await this.store.head(projectId, board.cards.map((c) => c.id));
    if (!head) return fail('project.not_found');
    return {
      context: { projectKey: head.key, properties: head.properties, lastTaskRank: head.lastTaskRank, imported: head.imported, newId: randomUUID },
      taskCount: head.taskCount,
    };
  }
}
