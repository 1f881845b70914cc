import type {
  ArchivedHits, BoardLists, BoardTask, CreatedTask, DeletedTasks, FullTask, LinkRow, ProjectFacts, ProjectFactsQuery, TaskQuery, ValueNamesQuery,
} from '@board/persistence';
import { countParts, DELETION_WINDOW_DAYS, DELETION_WINDOW_MS, DoneWhen, isOver, taskKey } from '@board/tasks';
import { InMemoryTaskStore } from './tasks';

/** The project facts over the in-memory store. */
export class InMemoryProjectFactsQuery implements ProjectFactsQuery {
  constructor(private readonly store: InMemoryTaskStore) {}

  async load(projectId: string): Promise<ProjectFacts> {
    const { key, doneWhen } = this.store.project(projectId);
    return { key, doneWhen };
  }
}

/** The names of options and people over the in-memory store (a person is named by any project that has them). */
export class InMemoryValueNamesQuery implements ValueNamesQuery {
  constructor(private readonly store: InMemoryTaskStore) {}

  async optionNames(projectId: string, propertyId: string, optionIds: string[]): Promise<{ id: string; name: string }[]> {
    const project = this.store.project(projectId);
    const options = project.defs.find((d) => d.id === propertyId)?.optionIds ?? new Set<string>();
    return optionIds.filter((id) => options.has(id) && project.optionNames.has(id)).map((id) => ({ id, name: project.optionNames.get(id) as string }));
  }

  async personName(userId: string): Promise<string | null> {
    for (const project of this.store.projects.values()) if (project.members.has(userId)) return project.members.get(userId) as string;
    return null;
  }

  async addNames(projectId: string, shown: { options: ReadonlyMap<string, readonly string[]>; people: readonly string[] }, names: Map<string, string>): Promise<void> {
    for (const [propertyId, ids] of shown.options) for (const r of await this.optionNames(projectId, propertyId, ids.filter((id) => !names.has(id)))) names.set(r.id, r.name);
    for (const id of shown.people) {
      const name = names.has(id) ? null : await this.personName(id);
      if (name !== null) names.set(id, name);
    }
  }
}

/**
 * The task read model over the in-memory store: tasks in the board's shape, with their blockers and
 * parts (this world keeps no checklists, comments nor feed). The board's serialised lists are the
 * SQL's own (test/e2e/board-lists.test.ts): `boardLists` is not kept here.
 */
export class InMemoryTaskQuery implements TaskQuery {
  constructor(private readonly store: InMemoryTaskStore) {}

  async boardLists(): Promise<BoardLists> {
    throw new Error('the in-memory task read model builds no board lists (the SQL does: test/e2e/board-lists.test.ts)');
  }

  async boardFingerprint(projectId: string): Promise<string> {
    const rows = this.store.tasksOf(projectId);
    return `${rows.length}:${rows.map((r) => r.updatedAt.getTime()).reduce((a, b) => Math.max(a, b), 0)}:${this.store.links.length}`;
  }

  async boardTasks(projectId: string, projectKey: string, doneWhen: DoneWhen | null, ids: string[]): Promise<BoardTask[]> {
    const wanted = new Set(ids);
    return this.live(projectId)
      .filter((r) => wanted.has(r.id))
      .map((r) => this.boardTask(projectId, r, projectKey, doneWhen));
  }

  newTask(task: CreatedTask, projectKey: string, doneWhen: DoneWhen | null): BoardTask {
    return this.shape({ ...task, updatedAt: task.createdAt, archivedAt: null }, projectKey, [], null);
  }

  async full(projectId: string, projectKey: string, doneWhen: DoneWhen | null, taskId: string): Promise<FullTask | null> {
    const [board] = await this.boardTasks(projectId, projectKey, doneWhen, [taskId]);
    if (!board) return null;
    const live = this.live(projectId);
    const link = (id: string): LinkRow[] => live.filter((r) => r.id === id).map((r) => ({ id: r.id, key: taskKey(projectKey, r.number), title: r.title, over: isOver(r.values, doneWhen) }));
    const links = this.store.links.filter((l) => l.taskId === taskId || l.blockerId === taskId);
    const parentId = live.find((r) => r.id === taskId)?.parentId ?? null;
    return {
      ...board,
      links: { blockedBy: links.filter((l) => l.taskId === taskId).flatMap((l) => link(l.blockerId)), blocks: links.filter((l) => l.blockerId === taskId).flatMap((l) => link(l.taskId)) },
      parent: parentId === null ? null : (link(parentId)[0] ?? null),
      children: live.filter((r) => r.parentId === taskId).flatMap((r) => link(r.id)),
      checklist: [],
      comments: [],
      activity: [],
    };
  }

  async deleted(projectId: string, projectKey: string, now: Date): Promise<DeletedTasks> {
    const rows = this.store
      .tasksOf(projectId)
      .filter((r): r is typeof r & { deletedAt: Date } => r.deletedAt !== null && r.deletedAt.getTime() > now.getTime() - DELETION_WINDOW_MS)
      .sort((a, b) => b.deletedAt.getTime() - a.deletedAt.getTime() || (a.id < b.id ? -1 : 1));
    return {
      deleted: rows.map((r) => ({
        id: r.id, number: r.number, key: taskKey(projectKey, r.number), title: r.title, position: r.position,
        deletedAt: r.deletedAt, goesAt: new Date(r.deletedAt.getTime() + DELETION_WINDOW_MS),
      })),
      windowDays: DELETION_WINDOW_DAYS,
    };
  }

  async searchArchived(projectId: string, projectKey: string, q: string): Promise<ArchivedHits> {
    const words = q.split(/\s+/).filter(Boolean).map((w) => w.toLowerCase());
    const holds = (text: string) => words.every((w) => text.toLowerCase().includes(w));
    const hits = this.store
      .tasksOf(projectId)
      .filter((r): r is typeof r & { archivedAt: Date } => r.deletedAt === null && r.archivedAt !== null && words.length > 0)
      .filter((r) => holds(r.description) && !holds(`${taskKey(projectKey, r.number)} ${r.title}`))
      .map((r) => ({ task: { id: r.id, number: r.number, key: taskKey(projectKey, r.number), title: r.title, position: r.position, archivedAt: r.archivedAt }, snippet: r.description }));
    return { hits: hits.slice(0, 12), total: hits.length };
  }

  private live(projectId: string) {
    return this.store
      .tasksOf(projectId)
      .filter((r) => r.deletedAt === null)
      .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  }

  private boardTask(projectId: string, r: ReturnType<InMemoryTaskQuery['live']>[number], projectKey: string, doneWhen: DoneWhen | null): BoardTask {
    const live = this.live(projectId);
    const blockers = this.store.links
      .filter((l) => l.taskId === r.id)
      .map((l) => live.find((b) => b.id === l.blockerId))
      .filter((b): b is NonNullable<typeof b> => b !== undefined && !isOver(b.values, doneWhen))
      .sort((a, b) => a.number - b.number)
      .map((b) => taskKey(projectKey, b.number));
    const parts = live.filter((p) => p.parentId === r.id).map((p) => ({ values: p.values, archived: p.archivedAt !== null }));
    return this.shape(r, projectKey, blockers, countParts(parts, doneWhen));
  }

  private shape(
    r: Pick<BoardTask, 'id' | 'number' | 'title' | 'description' | 'position' | 'createdAt' | 'updatedAt' | 'archivedAt'> & { values: Record<string, unknown> },
    projectKey: string,
    blockedBy: string[],
    parts: BoardTask['parts'],
  ): BoardTask {
    return {
      id: r.id, number: r.number, key: taskKey(projectKey, r.number), title: r.title, description: r.description, position: r.position,
      createdAt: r.createdAt, updatedAt: r.updatedAt, archivedAt: r.archivedAt, values: { ...r.values },
      checklistTotal: 0, checklistDone: 0, commentCount: 0, blockedBy, parts,
    };
  }
}
