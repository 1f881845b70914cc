import { Injectable } from '@nestjs/common';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { sql } from '../sql';
import { PropertyListQuery } from '../properties/property-list.query';
import { BoardProject, BoardQuery, BoardSettings, ChangelogQuery } from './board.query';

/** The board's settings in four queries at once (the properties through `PropertyListQuery`). */
@Injectable()
export class PgBoardQuery extends BoardQuery {
  constructor(
    private readonly db: Database,
    private readonly propertyList: PropertyListQuery,
  ) {
    super();
  }

  async settings(projectId: string, userId: string): Promise<BoardSettings | null> {
    const [projectRows, invites, members, propertyViews] = await Promise.all([
      this.db.query<BoardProject & { cardView: { rows: Record<string, unknown> } }>(
        sql`SELECT p.id, p.name, p.key, p.owner_id AS "ownerId", m.role, p.done_when AS "doneWhen", p.card_view AS "cardView"
           FROM projects p JOIN members m ON m.project_id = p.id AND m.user_id = ${userId} WHERE p.id = ${projectId}`,
      ),
      this.db.query(sql`SELECT email, created_at AS "createdAt" FROM invites WHERE project_id = ${projectId} ORDER BY created_at, email`),
      this.db.query(
        sql`SELECT u.id, u.name, u.email, u.color, u.emoji, m.role, u.kind
           FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ${projectId} ORDER BY m.created_at, u.id`,
      ),
      this.propertyList.list(projectId),
    ]);
    const project = projectRows[0];
    if (!project) return null;
    const { cardView, ...rest } = project;
    return {
      project: { ...rest, doneWhen: cleanDoneWhen(rest.doneWhen, propertyViews) },
      invites,
      members,
      properties: propertyViews,
      cardView: cardView ?? { rows: {} },
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

/** The changelog in one statement: the tasks of each entry as a JSON array. */
@Injectable()
export class PgChangelogQuery extends ChangelogQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async list(projectId: string): Promise<Record<string, unknown>[]> {
    return this.db.query(
      sql`SELECT o.id AS "optionId", o.property_id AS "propertyId", p.name AS "propertyName", o.name,
              to_char(o.shipped_at, 'YYYY-MM-DD') AS "shippedAt", o.note,
              COALESCE((SELECT json_agg(json_build_object('id', t.id, 'key', pr.key || '-' || t.number, 'title', t.title)
                                        ORDER BY t.position COLLATE "C", t.id)
                          FROM ship_tasks s JOIN tasks t ON t.project_id = s.project_id AND t.id = s.task_id
                         WHERE s.project_id = o.project_id AND s.option_id = o.id AND t.deleted_at IS NULL), '[]'::json) AS tasks
         FROM options o
         JOIN properties p ON p.id = o.property_id AND p.project_id = o.project_id
         JOIN projects pr ON pr.id = o.project_id
        WHERE o.project_id = ${projectId} AND o.shipped_at IS NOT NULL AND pr.releases
          AND ((p.type = 'select' AND (p.config ->> 'dated')::boolean IS TRUE) OR (p.type = 'iteration' AND pr.sprints))
        ORDER BY o.shipped_at DESC, o.position COLLATE "C" DESC, o.id`,
    );
  }
}
