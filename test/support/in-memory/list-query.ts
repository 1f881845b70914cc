import type { ListedTask, ListQuery, ListSummary } from '@board/persistence';
import { InMemoryListRepository } from './list-repository';

/**
 * The list read model over the in-memory lists. A listed task is known here by its id, place and
 * project only (the tasks are not this world's): the other board fields are blank.
 */
export class InMemoryListQuery implements ListQuery {
  constructor(private readonly store: InMemoryListRepository) {}

  async summaries(userId: string): Promise<ListSummary[]> {
    const ranked = await this.store.lists(userId);
    return (await Promise.all(ranked.map((l) => this.summary(userId, l.id)))).filter((s): s is ListSummary => s !== null);
  }

  async summary(userId: string, listId: string): Promise<ListSummary | null> {
    const list = this.store.lists_.get(listId);
    if (list?.userId !== userId) return null;
    return { id: list.id, name: list.name, count: this.store.items_.filter((i) => i.listId === listId).length, createdAt: list.now };
  }

  async read(userId: string, listId: string): Promise<{ list: ListSummary; tasks: ListedTask[] } | null> {
    const list = await this.summary(userId, listId);
    if (!list) return null;
    const items = this.store.items_.filter((i) => i.listId === listId).sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    const tasks = items.map(({ taskId, projectId, position }): ListedTask => ({
      id: taskId, number: 0, key: '', title: '', description: '', position, createdAt: list.createdAt, updatedAt: list.createdAt, archivedAt: null,
      values: {}, checklistTotal: 0, checklistDone: 0, commentCount: 0, blockedBy: [], parts: null, projectId, projectKey: '', archived: false,
    }));
    return { list, tasks };
  }
}
