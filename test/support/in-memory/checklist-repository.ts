import { applyChecklistPatch, ChecklistItem, ChecklistPatch, ChecklistRepository, checklistAction, isChecklistClash } from '@board/tasks';

/**
 * ChecklistRepository in memory. `liveTasks` holds `projectId:taskId` of the live tasks; `touched`
 * records each task marked changed. The compare-and-write follows the port's rule: only a change,
 * and with a base only while the saved text is the base (or already the new text).
 */
export class InMemoryChecklistRepository extends ChecklistRepository {
  readonly items = new Map<string, ChecklistItem>();
  readonly liveTasks = new Set<string>();
  readonly touched: { projectId: string; taskId: string; at: Date }[] = [];

  async find(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const item = this.items.get(itemId);
    return item?.projectId === projectId ? { ...item } : null;
  }

  async lockTask(projectId: string, taskId: string): Promise<boolean> {
    return this.liveTasks.has(`${projectId}:${taskId}`);
  }

  async lastPosition(projectId: string, taskId: string): Promise<string | null> {
    const ranks = [...this.items.values()].filter((i) => i.projectId === projectId && i.taskId === taskId).map((i) => i.position).sort();
    return ranks[ranks.length - 1] ?? null;
  }

  async insert(item: ChecklistItem): Promise<boolean> {
    if (!this.liveTasks.has(`${item.projectId}:${item.taskId}`)) return false;
    this.items.set(item.id, { ...item });
    return true;
  }

  async write(projectId: string, itemId: string, patch: ChecklistPatch): Promise<{ before: ChecklistItem; after: ChecklistItem } | null> {
    const before = await this.find(projectId, itemId);
    if (!before || isChecklistClash(before.text, patch)) return null;
    const after = { ...before, ...applyChecklistPatch(before, patch) };
    if (!checklistAction(before, after)) return null;
    this.items.set(itemId, after);
    return { before, after: { ...after } };
  }

  async remove(projectId: string, itemId: string): Promise<ChecklistItem | null> {
    const item = await this.find(projectId, itemId);
    if (item) this.items.delete(itemId);
    return item;
  }

  async touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    this.touched.push({ projectId, taskId, at: now });
  }
}
