import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityRecorder, ChangeAnnouncer, Clock, fail, UnitOfWork } from '@board/kernel';
import {
  ChecklistAction, ChecklistItem, ChecklistItemView, checklistAction, checklistItemView, ChecklistRepository, isChecklistClash,
  isEmptyChecklistPatch, newChecklistItem, readChecklistPatch, readChecklistText,
} from '@board/tasks';
import type { Writer } from '../auth/auth-context';
import type { AddChecklistItemBody, UpdateChecklistItemBody } from './checklist.dto';

/**
 * A task's checklist. Every write that changes something moves the task's `updated_at`, leaves
 * one `checklist` feed line and rings the task, all in one transaction under the project lock;
 * a write that changes nothing leaves and rings nothing.
 */
@Injectable()
export class ChecklistService {
  constructor(
    private readonly items: ChecklistRepository,
    private readonly activity: ActivityRecorder,
    private readonly changes: ChangeAnnouncer,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async add(writer: Writer, taskId: string, body: AddChecklistItemBody): Promise<{ item: ChecklistItemView }> {
    const text = readChecklistText(body.text);
    const projectId = writer.projectId;
    // The task's row lock, not the project's: adds to other tasks go on meanwhile.
    return this.uow.run(async () => {
      if (!(await this.items.lockTask(projectId, taskId))) fail('task.not_found');
      const item = newChecklistItem({ id: randomUUID(), projectId, taskId, text, lastPosition: await this.items.lastPosition(projectId, taskId) });
      if (!(await this.items.insert(item))) fail('task.not_found');
      await this.changed(writer, item, 'added');
      return { item: checklistItemView(item) };
    });
  }

  async update(writer: Writer, itemId: string, body: UpdateChecklistItemBody): Promise<{ item: ChecklistItemView } | { ok: true }> {
    const patch = readChecklistPatch({ ...body });
    if (isEmptyChecklistPatch(patch)) return { ok: true };
    const projectId = writer.projectId;
    return this.uow.run(
      async () => {
        const written = await this.items.write(projectId, itemId, patch);
        if (written) {
          await this.changed(writer, written.after, checklistAction(written.before, written.after)!);
          return { item: checklistItemView(written.after) };
        }
        // Nothing written: the item is gone, clashed, or already as asked.
        const current = await this.items.find(projectId, itemId);
        if (!current) return fail('checklist.not_found');
        if (isChecklistClash(current.text, patch)) fail('checklist.clash', {}, { current: current.text });
        return { item: checklistItemView(current) };
      },
      { lockProject: projectId },
    );
  }

  async remove(writer: Writer, itemId: string): Promise<void> {
    const projectId = writer.projectId;
    await this.uow.run(
      async () => {
        const item = await this.items.remove(projectId, itemId);
        if (!item) fail('checklist.not_found');
        await this.changed(writer, item, 'deleted');
      },
      { lockProject: projectId },
    );
  }

  private async changed(writer: Writer, item: ChecklistItem, action: ChecklistAction): Promise<void> {
    await this.items.touchTask(item.projectId, item.taskId, this.clock.now());
    await this.activity.record({
      projectId: item.projectId,
      taskId: item.taskId,
      actorId: writer.userId,
      kind: 'checklist',
      data: { itemId: item.id, action },
    });
    await this.changes.announce({ projectId: item.projectId, scope: 'task', taskId: item.taskId, clientId: writer.clientId });
  }
}
