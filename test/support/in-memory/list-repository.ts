import { ListItem, ListRepository, NewList, Ranked } from '@board/lists';

const byPosition = (a: Ranked, b: Ranked) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

/**
 * ListRepository in memory: a person's lists and what they hold. `tasks` says which task each
 * person may put in a list (a live task of a project they are a member of) and its project.
 */
export class InMemoryListRepository extends ListRepository {
  readonly lists_ = new Map<string, NewList>();
  readonly items_: ListItem[] = [];
  /** `userId:taskId` → the task's project, for the tasks the person may see. */
  readonly tasks = new Map<string, string>();
  readonly locked: string[] = [];

  async lockPerson(userId: string): Promise<void> {
    this.locked.push(userId);
  }

  async lists(userId: string, exceptId: string | null = null): Promise<Ranked[]> {
    return [...this.lists_.values()].filter((l) => l.userId === userId && l.id !== exceptId).map(({ id, position }) => ({ id, position })).sort(byPosition);
  }

  async exists(userId: string, listId: string): Promise<boolean> {
    return this.lists_.get(listId)?.userId === userId;
  }

  async insert(list: NewList): Promise<void> {
    this.lists_.set(list.id, { ...list });
  }

  async update(userId: string, listId: string, change: { name?: string; position?: string }): Promise<void> {
    const list = this.lists_.get(listId);
    if (list?.userId !== userId) return;
    if (change.name !== undefined) list.name = change.name;
    if (change.position !== undefined) list.position = change.position;
  }

  async delete(userId: string, listId: string): Promise<boolean> {
    if (this.lists_.get(listId)?.userId !== userId) return false;
    this.lists_.delete(listId);
    return true;
  }

  async taskProject(userId: string, taskId: string): Promise<string | null> {
    return this.tasks.get(`${userId}:${taskId}`) ?? null;
  }

  async items(listId: string): Promise<Ranked[]> {
    return this.items_.filter((i) => i.listId === listId).map((i) => ({ id: i.taskId, position: i.position })).sort(byPosition);
  }

  async putItem(item: ListItem): Promise<void> {
    const at = this.items_.findIndex((i) => i.listId === item.listId && i.taskId === item.taskId);
    if (at >= 0) this.items_[at] = { ...item };
    else this.items_.push({ ...item });
  }

  async removeItem(listId: string, taskId: string): Promise<void> {
    const at = this.items_.findIndex((i) => i.listId === listId && i.taskId === taskId);
    if (at >= 0) this.items_.splice(at, 1);
  }
}
