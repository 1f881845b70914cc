import type { ViewCsvQuery, ViewTaskPageQuery, ViewTasksPage, ViewTasksPageRequest } from '@board/persistence';
import type { CsvTask } from '@board/views';
import { InMemoryTaskStore } from './tasks';

/**
 * A view's task page over the in-memory store: the live, unarchived tasks in rank order. The rules
 * and the order asked are the SQL's to apply (test/integration/filters-sql.test.ts,
 * view-order-sql.test.ts): it keeps every request, so specs assert what was asked.
 */
export class InMemoryViewTaskPageQuery implements ViewTaskPageQuery {
  readonly requests: ViewTasksPageRequest[] = [];

  constructor(private readonly store: InMemoryTaskStore) {}

  async page(request: ViewTasksPageRequest): Promise<ViewTasksPage> {
    this.requests.push(request);
    const ids = this.store
      .tasksOf(request.projectId)
      .filter((t) => t.deletedAt === null && t.archivedAt === null)
      .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
      .map((t) => t.id);
    const from = request.after === null ? 0 : ids.indexOf(request.after) + 1;
    return { total: ids.length, ids: ids.slice(from, from + request.limit + 1) };
  }
}

/** What a view's CSV reads, over the in-memory store; `asked` keeps how many tasks each read took. */
export class InMemoryViewCsvQuery implements ViewCsvQuery {
  readonly asked: number[] = [];

  constructor(private readonly store: InMemoryTaskStore) {}

  async tasks(projectId: string, ids: readonly string[]): Promise<CsvTask[]> {
    this.asked.push(ids.length);
    return ids.flatMap((id) => {
      const t = this.store.rows.get(id);
      return t?.projectId === projectId ? [{ number: t.number, title: t.title, values: { ...t.values }, createdAt: t.createdAt, updatedAt: t.updatedAt }] : [];
    });
  }

  async names(projectId: string): Promise<Map<string, string>> {
    const project = this.store.project(projectId);
    return new Map([...project.optionNames, ...project.members]);
  }
}
