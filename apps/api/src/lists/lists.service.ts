import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, parseId, silent, UnitOfWork } from '@board/kernel';
import { checkListRoom, checkTaskRoom, ListChange, ListCreate, ListRepository, ListTaskPlace, rankAfter, rankAtEnd } from '@board/lists';
import { ListQuery, ListSummary } from '@board/persistence';

/**
 * A person's own lists of tasks across projects. Every write takes the person's lock (limits and
 * ranks hold under races); nothing rings a project stream or writes a feed line.
 */
@Injectable()
export class ListsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ListRepository,
    private readonly queries: ListQuery,
    private readonly clock: Clock,
  ) {}

  list(userId: string): Promise<ListSummary[]> {
    return this.queries.summaries(userId);
  }

  async create(userId: string, { name, afterId }: ListCreate): Promise<ListSummary> {
    const id = randomUUID();
    await this.uow.write(async () => {
      await this.store.lockPerson(userId);
      const lists = await this.store.lists(userId);
      checkListRoom(lists.length);
      const position = afterId === undefined ? rankAtEnd(lists) : rankAfter(lists, afterId);
      await this.store.insert({ id, userId, name, position, now: this.clock.now() });
      return silent(undefined);
    });
    // Deleted by another request between the write and this read: gone, as a later read would say.
    return (await this.queries.summary(userId, id)) ?? fail('list.not_found');
  }

  async update(userId: string, rawListId: string, { name, afterId }: ListChange): Promise<ListSummary> {
    const listId = parseId(rawListId, 'list');
    await this.uow.write(async () => {
      await this.store.lockPerson(userId);
      if (!(await this.store.exists(userId, listId))) fail('list.not_found');
      // The presence of afterId moves the list (null or unknown: first).
      const position = afterId === undefined ? undefined : rankAfter(await this.store.lists(userId, listId), afterId);
      if (name !== undefined || position !== undefined) await this.store.update(userId, listId, { name, position });
      return silent(undefined);
    });
    return (await this.queries.summary(userId, listId)) ?? fail('list.not_found');
  }

  async remove(userId: string, rawListId: string): Promise<void> {
    const listId = parseId(rawListId, 'list');
    if (!(await this.store.delete(userId, listId))) fail('list.not_found');
  }

  async read(userId: string, rawListId: string) {
    const listId = parseId(rawListId, 'list');
    const read = await this.queries.read(userId, listId);
    if (!read) fail('list.not_found');
    return read;
  }

  /** Adds the task, or moves it when it is in the list already (null or absent afterId: first). */
  async putTask(userId: string, rawListId: string, rawTaskId: string, place: ListTaskPlace): Promise<void> {
    const listId = parseId(rawListId, 'list');
    const taskId = parseId(rawTaskId, 'task');
    const afterId = place.afterId ?? null;
    await this.uow.write(async () => {
      await this.store.lockPerson(userId);
      if (!(await this.store.exists(userId, listId))) fail('list.not_found');
      const projectId = await this.store.taskProject(userId, taskId);
      if (!projectId) fail('task.not_found');
      const items = await this.store.items(listId);
      const others = items.filter((i) => i.id !== taskId);
      if (others.length === items.length) checkTaskRoom(items.length);
      await this.store.putItem({ listId, projectId: projectId, taskId, position: rankAfter(others, afterId) });
      return silent(undefined);
    });
  }

  /** Idempotent: a task not in the list (or unknown, or deleted) answers alike. */
  async removeTask(userId: string, rawListId: string, rawTaskId: string): Promise<void> {
    const listId = parseId(rawListId, 'list');
    const taskId = parseId(rawTaskId, 'task');
    await this.uow.write(async () => {
      await this.store.lockPerson(userId);
      if (!(await this.store.exists(userId, listId))) fail('list.not_found');
      await this.store.removeItem(listId, taskId);
      return silent(undefined);
    });
  }
}
