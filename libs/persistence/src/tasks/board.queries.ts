import { Injectable } from '@nestjs/common';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { PropertyListQuery } from '../properties/property-list.query';

export interface BoardProject {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role: string;
  doneWhen: DoneWhen | null;
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
  constructor(
    private readonly db: Database,
    private readonly propertyList: PropertyListQuery,
  ) {}

  async settings(projectId: string, userId: string) {
    const [projectRows, invites, members, propertyViews, views] = await Promise.all([
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
      this.propertyList.list(projectId),
      this.db.query<ViewRow>(
        `SELECT id, name, kind, group_by_id AS "groupById", position, is_default AS "isDefault", filters, sort, card_view AS "cardView"
           FROM views WHERE project_id = $1 ORDER BY position COLLATE "C", id`,
        [projectId],
      ),
    ]);
    const project = projectRows[0];
    if (!project) return null;
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
