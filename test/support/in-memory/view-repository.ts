import { rankBetween } from '@board/kernel';
import { NewView, ViewRecord, ViewRepository } from '@board/views';

const byPosition = (a: ViewRecord, b: ViewRecord) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

/** ViewRepository in memory: views, each person's lens on them, and each project's card view. */
export class InMemoryViewRepository extends ViewRepository {
  readonly views = new Map<string, ViewRecord>();
  /** `viewId:userId` → the lens. */
  readonly lenses = new Map<string, { rules: unknown[]; sort: unknown }>();
  readonly cardViews = new Map<string, { rows?: Record<string, unknown> }>();

  async list(projectId: string, userId: string): Promise<ViewRecord[]> {
    const views = [...this.views.values()].filter((v) => v.projectId === projectId).sort(byPosition);
    return Promise.all(views.map(async (v) => (await this.find(projectId, v.id, userId)) as ViewRecord));
  }

  async find(projectId: string, id: string, userId: string | null = null): Promise<ViewRecord | null> {
    const view = this.views.get(id);
    if (view?.projectId !== projectId) return null;
    const lens = userId === null ? undefined : this.lenses.get(`${id}:${userId}`);
    return structuredClone({ ...view, lensRules: lens?.rules ?? null, lensSort: lens?.sort ?? null });
  }

  async insert(view: NewView): Promise<void> {
    const last = [...this.views.values()].filter((v) => v.projectId === view.projectId).sort(byPosition).pop();
    this.views.set(view.id, { ...structuredClone(view), position: rankBetween(last?.position ?? null, null), isDefault: false, cardView: null });
  }

  /** A project's main view, as a project starts with it. */
  addDefault(view: Omit<NewView, 'filters' | 'sort'>): void {
    this.views.set(view.id, { ...view, filters: { rules: [] }, sort: null, position: rankBetween(null, null), isDefault: true, cardView: null });
  }

  async save(view: ViewRecord): Promise<void> {
    const { lensRules: _rules, lensSort: _sort, ...stored } = structuredClone(view);
    this.views.set(view.id, stored);
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (this.views.get(id)?.projectId === projectId) this.views.delete(id);
  }

  async rankAfter(projectId: string, afterId: string | null, movingId: string): Promise<string> {
    const others = [...this.views.values()].filter((v) => v.projectId === projectId && v.id !== movingId).sort(byPosition);
    const at = afterId === null ? -1 : others.findIndex((v) => v.id === afterId);
    if (at < 0) return rankBetween(null, others[0]?.position ?? null);
    return rankBetween(others[at].position, others[at + 1]?.position ?? null);
  }

  async putLens(_projectId: string, viewId: string, userId: string, rules: unknown[], sort: unknown): Promise<void> {
    this.lenses.set(`${viewId}:${userId}`, structuredClone({ rules, sort }));
  }

  async deleteLens(_projectId: string, viewId: string, userId: string): Promise<void> {
    this.lenses.delete(`${viewId}:${userId}`);
  }

  async projectCardView(projectId: string): Promise<{ rows?: Record<string, unknown> }> {
    return structuredClone(this.cardViews.get(projectId) ?? {});
  }

  async saveProjectCardView(projectId: string, cardView: unknown): Promise<void> {
    this.cardViews.set(projectId, structuredClone(cardView) as { rows?: Record<string, unknown> });
  }
}
