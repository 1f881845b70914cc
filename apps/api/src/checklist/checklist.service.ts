import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLine, notice, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  ChecklistAction, ChecklistItem, ChecklistItemView, checklistAction, checklistItemView, ChecklistPatch, ChecklistRepository, isChecklistClash,
  isEmptyChecklistPatch, newChecklistItem,
} from '@board/tasks';
import type { ProjectCaller } from '../auth/auth-context';

/**
 * A task's checklist. Every write that changes something moves the task's `updated_at`, leaves
 * one `checklist` feed line and rings the task, all in one transaction under the project lock;
 * a write that changes nothing leaves and rings nothing.
 */
@Injectable()
export class ChecklistService {
  constructor(
    private readonly items: ChecklistRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async add(caller: ProjectCaller, taskId: string, { text }: { text: string }): Promise<{ item: ChecklistItemView }> {
    const projectId = caller.projectId;
    // The task's row lock, not the project's: adds to other tasks go on meanwhile.
    return this.uow.write(async () => {
      if (!(await this.items.lockTask(projectId, taskId))) fail('task.not_found');
      const item = newChecklistItem({ id: randomUUID(), projectId, taskId, text, lastPosition: await this.items.lastPosition(projectId, taskId) });
      if (!(await this.items.insert(item))) fail('task.not_found');
      const events = await this.changed(caller, item, 'added');
      return withEvents({ item: checklistItemView(item) }, events);
    });
  }

  async update(caller: ProjectCaller, itemId: string, patch: ChecklistPatch): Promise<{ item: ChecklistItemView } | { ok: true }> {
    if (isEmptyChecklistPatch(patch)) return { ok: true };
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const written = await this.items.write(projectId, itemId, patch);
        // The repository writes only a change, so a written item always has its action.
        const action = written && checklistAction(written.before, written.after);
        if (written && action) {
          const events = await this.changed(caller, written.after, action);
          return withEvents({ item: checklistItemView(written.after) }, events);
        }
        // Nothing written: the item is gone, clashed, or already as asked.
        const current = await this.items.find(projectId, itemId);
        if (!current) return fail('checklist.not_found');
        if (isChecklistClash(current.text, patch)) fail('checklist.clash', {}, { current: current.text });
        return silent({ item: checklistItemView(current) });
      },
      { lockProject: projectId },
    );
  }

  async remove(caller: ProjectCaller, itemId: string): Promise<void> {
    const projectId = caller.projectId;
    await this.uow.write(
      async () => {
        const item = await this.items.remove(projectId, itemId);
        if (!item) fail('checklist.not_found');
        return withEvents(undefined, await this.changed(caller, item, 'deleted'));
      },
      { lockProject: projectId },
    );
  }

  /** Moves the task's `updated_at`; answers the write's events: its `checklist` line (which item, by its text) and the task's ring. */
  private async changed(caller: ProjectCaller, item: ChecklistItem, action: ChecklistAction): Promise<WriteEvent[]> {
    await this.items.touchTask(item.projectId, item.taskId, this.clock.now());
    return [
      feedLine({
      projectId: item.projectId,
      taskId: item.taskId,
      actorId: caller.userId,
      kind: 'checklist',
      // The item's words as they stand after the write: the feed says which item, even once it is gone.
      data: { itemId: item.id, action, text: item.text },
      }),
      notice({ projectId: item.projectId, scope: 'task', taskId: item.taskId, clientId: caller.clientId }),
    ];
  }
}
