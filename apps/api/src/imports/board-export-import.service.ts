import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createdLineData } from '@board/charts';
import { ActivityLine, Clock, fail, feedLinesRingingOnce, notice, UnitOfWork, withEvents } from '@board/kernel';
import { checkProjectRoom } from '@board/tasks';
import { BoardExport, BoardExportPlan, BoardExportRepository, ImportPreview, planBoardExport } from '@board/imports';
import type { ProjectCaller } from '../auth/auth-context';

/** The preview of importing a project export: the Trello preview's fields (lists and labels none), and what else comes in. */
export interface BoardExportPreview extends ImportPreview {
  kind: 'export';
  properties: number;
  views: number;
  runs: number;
  deleted: number;
}

/**
 * Importing a project export (extensions.md § 3.4) into a project without tasks, beside the
 * Trello import: the same route, lock, body limit and heavy-read slot, one transaction.
 */
@Injectable()
export class BoardExportImportService {
  constructor(
    private readonly store: BoardExportRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** What the import would do now; writes nothing, and refuses as the import would. */
  async preview(caller: ProjectCaller, doc: BoardExport): Promise<BoardExportPreview> {
    const plan = await this.plan(caller, doc);
    const archived = plan.tasks.filter((t) => t.deletedAt === null && t.archivedAt !== null).length;
    return {
      kind: 'export',
      tasks: plan.liveCount - archived,
      archived,
      lists: 0,
      closedLists: 0,
      labels: 0,
      checklistItems: plan.checklist.length,
      comments: plan.comments.length,
      skipped: [],
      properties: plan.properties.length,
      views: plan.views.length,
      runs: plan.runs.length,
      deleted: plan.tasks.length - plan.liveCount,
    };
  }

  /**
   * The whole import in one transaction under the project lock: the project's setup replaced,
   * every row written, the export's feed lines kept and one `import` line per task beside them
   * (with `sourceId`, the task's id in the export). One `board` ring and one `import` webhook ring.
   */
  async import(caller: ProjectCaller, doc: BoardExport): Promise<{ imported: number; skipped: [] }> {
    return this.uow.write(
      async () => {
        const plan = await this.plan(caller, doc);
        await this.store.write(caller.projectId, plan);
        const lines: ActivityLine[] = plan.tasks.map((task) => ({
          projectId: caller.projectId,
          taskId: task.id,
          actorId: caller.userId,
          kind: 'import',
          data: { ...createdLineData(task.values, selectDefs(plan)), sourceId: task.sourceId },
        }));
        const answer = { imported: plan.tasks.length, skipped: [] as [] };
        return withEvents(answer, feedLinesRingingOnce(lines, ['import']), notice({ projectId: caller.projectId, scope: 'board', clientId: caller.clientId }));
      },
      { lockProject: caller.projectId },
    );
  }

  private async plan(caller: ProjectCaller, doc: BoardExport): Promise<BoardExportPlan> {
    const head = (await this.store.head(caller.projectId)) ?? fail('project.not_found');
    if (head.hasTasks) fail('import.not_empty');
    const plan = planBoardExport(doc, { members: head.members, importerId: caller.userId, now: this.clock.now(), newId: randomUUID });
    checkProjectRoom(0, plan.liveCount);
    return plan;
  }
}

const selectDefs = (plan: BoardExportPlan) => plan.properties.map((p) => ({ id: p.id, type: p.type }));
