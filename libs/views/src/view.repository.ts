import type { CardRows } from './card-view';

/** A view as stored, with the reader's own lens on it when one was asked for. */
export interface ViewRecord {
  id: string;
  projectId: string;
  name: string;
  kind: string;
  groupById: string | null;
  position: string;
  isDefault: boolean;
  filters: { rules?: unknown[] } | null;
  sort: unknown;
  cardView: { rows?: CardRows } | null;
  /** The reader's own lens on the view, if they have one. */
  lensRules?: unknown[] | null;
  lensSort?: unknown;
}

export type NewView = Omit<ViewRecord, 'position' | 'isDefault' | 'cardView'>;

/** Views, the lenses people keep on them, and the project's card view (port; the adapter is in libs/persistence). */
export abstract class ViewRepository {
  /** The project's views in order, each with `userId`'s lens. */
  abstract list(projectId: string, userId: string): Promise<ViewRecord[]>;
  /** One view with `userId`'s lens (none when null); `lock` holds the view's row for the write. */
  abstract find(projectId: string, id: string, userId?: string | null, lock?: boolean): Promise<ViewRecord | null>;
  /** Adds a view after the project's last one. */
  abstract insert(view: NewView): Promise<void>;
  abstract save(view: ViewRecord): Promise<void>;
  abstract delete(projectId: string, id: string): Promise<void>;
  /** A rank right after `afterId` among the project's views (the front when null or unknown). */
  abstract rankAfter(projectId: string, afterId: string | null, movingId: string): Promise<string>;
  abstract putLens(projectId: string, viewId: string, userId: string, rules: unknown[], sort: unknown): Promise<void>;
  abstract deleteLens(projectId: string, viewId: string, userId: string): Promise<void>;
  abstract projectCardView(projectId: string): Promise<{ rows?: Record<string, unknown> }>;
  abstract saveProjectCardView(projectId: string, cardView: unknown): Promise<void>;
}
