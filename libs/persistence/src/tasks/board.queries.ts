import { Injectable } from '@nestjs/common';
import { hasDatedOptions } from '@board/properties';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';

export interface BoardProject {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role: string;
  doneWhen: DoneWhen | null;
}

export interface OptionView {
  id: string;
  propertyId: string;
  name: string;
  color: string;
  position: string;
  startsOn?: string | null;
  targetOn?: string | null;
  note?: string | null;
  shippedAt?: string | null;
}

export interface BoardPropertyView {
  id: string;
  name: string;
  type: string;
  position: string;
  config: Record<string, any>;
  options: OptionView[];
}

export interface ViewRow {
  id: string;
  name: string;
  kind: string;
  groupById: string | null;
  position: string;
  isDefault: boolean;
  filters: { rules: unknown[] };
  sort: { columnId: string; direction: string } | null;
  cardView: unknown;
}

/** The settings half of a board read: project, people, properties, views, card view. */
@Injectable()
export class BoardQueries {
  constructor(private readonly db: Database) {}

  async settings(projectId: string, userId: string) {
    const [projectRows, invites, members, properties, options, views] = await Promise.all([
      this.db.query<BoardProject & { cardView: { rows: Record<string, unknown> } }>(
        `SELECT p.id, p.name, p.key, p.owner_id AS "ownerId", m.role, p.done_when AS "doneWhen", p.card_view AS "cardView"
           FROM projects p JOIN members m ON m.project_id = p.id AND m.user_id = $2 WHERE p.id = $1`,
        [projectId, userId],
      ),
      this.db.query(`SELECT email, created_at AS "createdAt" FROM invites WHERE project_id = $1 ORDER BY created_at, email`, [projectId]),
      this.db.query(
        `SELECT u.id, u.name, u.email, u.color, u.emoji, m.role, u.kind
           FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = $1 ORDER BY m.created_at, u.id`,
        [projectId],
      ),
      this.db.query<BoardPropertyView>(
        `SELECT id, name, type, position, config FROM properties WHERE project_id = $1 ORDER BY position COLLATE "C", id`,
        [projectId],
      ),
      this.db.query<OptionView & { property_id: string }>(
        `SELECT id, property_id, property_id AS "propertyId", name, color, position,
                starts_on AS "startsOn", target_on AS "targetOn", note, shipped_at AS "shippedAt"
           FROM options WHERE project_id = $1 ORDER BY position COLLATE "C", id`,
        [projectId],
      ),
      this.db.query<ViewRow>(
        `SELECT id, name, kind, group_by_id AS "groupById", position, is_default AS "isDefault", filters, sort, card_view AS "cardView"
           FROM views WHERE project_id = $1 ORDER BY position COLLATE "C", id`,
        [projectId],
      ),
    ]);
    const project = projectRows[0];
    if (!project) return null;
    const byProperty = new Map<string, OptionView[]>();
    for (const { property_id, ...o } of options) {
      const list = byProperty.get(property_id) ?? [];
      list.push(o);
      byProperty.set(property_id, list);
    }
    const propertyViews = properties.map((p) => {
      const dated = hasDatedOptions(p.type, p.config ?? {});
      const opts = (byProperty.get(p.id) ?? []).map((o) =>
        dated ? o : { id: o.id, propertyId: o.propertyId, name: o.name, color: o.color, position: o.position },
      );
      return { ...p, config: p.config ?? {}, options: opts };
    });
    const { cardView, ...rest } = project;
    return {
      project: { ...rest, doneWhen: cleanDoneWhen(rest.doneWhen, propertyViews) },
      invites,
      members,
      properties: propertyViews,
      views,
      cardView: cleanCardView(cardView, propertyViews),
    };
  }
}

/** doneWhen naming a gone property reads as null; gone options drop out. */
export function cleanDoneWhen(doneWhen: DoneWhen | null, properties: { id: string; type: string; options: { id: string }[] }[]): DoneWhen | null {
  if (!doneWhen) return null;
  const property = properties.find((p) => p.id === doneWhen.propertyId && p.type === 'select');
  if (!property) return null;
  const live = new Set(property.options.map((o) => o.id));
  return { propertyId: doneWhen.propertyId, optionIds: doneWhen.optionIds.filter((id) => live.has(id)) };
}

/** Card view rows of gone properties are left out. */
export function cleanCardView(cardView: { rows?: Record<string, unknown> } | null, properties: { id: string }[]): { rows: Record<string, unknown> } {
  const ids = new Set(['_title', ...properties.map((p) => p.id)]);
  return { rows: Object.fromEntries(Object.entries(cardView?.rows ?? {}).filter(([k]) => ids.has(k))) };
}
