import { Injectable } from '@nestjs/common';
import { fail, parseId, silent, UnitOfWork, withEvents } from '@board/kernel';
import { ProjectFactsQuery } from '@board/persistence';
import { AddBlocker, assertCanBePart, assertNoCircle, SetParent, Task, taskKey, TaskRepository } from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';
import { lineEvent, noticeEvent } from './task-events';

/** Blocker links and parts. Both are read and written under the project lock. */
@Injectable()
export class LinksService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly facts: ProjectFactsQuery,
    private readonly uow: UnitOfWork,
  ) {}

  async addBlocker(caller: ProjectCaller, taskId: string, command: AddBlocker): Promise<void> {
    const { blockerId } = command;
    await this.uow.write(
      async () => {
        const task = await this.load(caller, taskId);
        const blocker = await this.other(caller, blockerId);
        const [taskKey, blockerKey] = await Promise.all([this.key(caller, task), this.key(caller, blocker)]);
        // The whole project's links, read inside the writing transaction under the project lock.
        assertNoCircle(await this.tasks.links(caller.projectId), { id: task.id, key: taskKey }, { id: blocker.id, key: blockerKey });
        if (!(await this.tasks.addLink(caller.projectId, task.id, blocker.id))) return silent(undefined);
        return withEvents(
          undefined,
          lineEvent(caller, task.id, 'link', { action: 'linked', blockerKey }),
          noticeEvent(caller, 'board', task.id),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  async removeBlocker(caller: ProjectCaller, taskId: string, rawBlockerId: string): Promise<void> {
    const blockerId = parseId(rawBlockerId, 'task');
    await this.uow.write(
      async () => {
        const task = await this.load(caller, taskId);
        // A deleted blocker is gone for every route but restore (its link stays for the restore).
        const blocker = await this.other(caller, blockerId);
        if (!(await this.tasks.removeLink(caller.projectId, task.id, blockerId))) return silent(undefined);
        return withEvents(
          undefined,
          lineEvent(caller, task.id, 'link', { action: 'unlinked', blockerKey: await this.key(caller, blocker) }),
          noticeEvent(caller, 'board', task.id),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  /** Makes the task a part of `parentId`; answers the key of the parent it left, if any. */
  async setParent(caller: ProjectCaller, taskId: string, command: SetParent): Promise<string | null> {
    const { parentId } = command;
    return this.uow.write(
      async () => {
        const task = await this.load(caller, taskId, true);
        const parent = await this.other(caller, parentId);
        if (task.parentId === parent.id) return silent(null);
        const [taskKey, parentKey] = await Promise.all([this.key(caller, task), this.key(caller, parent)]);
        const grandParent = parent.parentId ? await this.tasks.find(caller.projectId, parent.parentId) : null;
        assertCanBePart(
          { id: task.id, key: taskKey, parentKey: null, hasParts: await this.tasks.hasParts(caller.projectId, task.id) },
          { id: parent.id, key: parentKey, parentKey: grandParent && !grandParent.isDeleted ? await this.key(caller, grandParent) : null, hasParts: false },
        );
        const old = task.parentId ? await this.tasks.find(caller.projectId, task.parentId) : null;
        const left = old && !old.isDeleted ? await this.key(caller, old) : null;
        task.setParent(parent.id);
        await this.tasks.save(task, new Date(), false);
        return withEvents(
          left,
          left ? lineEvent(caller, task.id, 'link', { action: 'unparented', parentKey: left }) : null,
          lineEvent(caller, task.id, 'link', { action: 'parented', parentKey }),
          noticeEvent(caller, 'board', task.id),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  async clearParent(caller: ProjectCaller, taskId: string): Promise<void> {
    await this.uow.write(
      async () => {
        const task = await this.load(caller, taskId, true);
        if (!task.parentId) return silent(undefined);
        const old = await this.tasks.find(caller.projectId, task.parentId);
        // A deleted parent reads as no parent (like `left` above): nothing to take off, nothing written;
        // the part stays with it for a restore.
        if (!old || old.isDeleted) return silent(undefined);
        task.setParent(null);
        await this.tasks.save(task, new Date(), false);
        return withEvents(
          undefined,
          lineEvent(caller, task.id, 'link', { action: 'unparented', parentKey: await this.key(caller, old) }),
          noticeEvent(caller, 'board', task.id),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  /** The other end of a link: a live or archived task of this board. */
  private async other(caller: ProjectCaller, id: string): Promise<Task> {
    const task = await this.tasks.find(caller.projectId, id);
    if (!task || task.isDeleted) fail('task.not_on_board');
    return task;
  }

  private async load(caller: ProjectCaller, taskId: string, lock = false): Promise<Task> {
    const task = await this.tasks.find(caller.projectId, taskId, lock);
    if (!task) fail('task.not_found');
    return task;
  }

  private async key(caller: ProjectCaller, task: Task): Promise<string> {
    return taskKey((await this.facts.load(caller.projectId)).key, task.number);
  }
}
