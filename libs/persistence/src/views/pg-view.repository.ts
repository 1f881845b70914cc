import { Injectable } from '@nestjs/common';
import { rankBetween } from '@board/kernel';
import { NewView, ViewRecord, ViewRepository } from '@board/views';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { lensJoin } from './lenses.table';
import { VIEW_COLUMNS } from './views.table';

const json = (value: unknown): string => JSON.stringify(value);

/** Views and the lenses people keep on them, in PostgreSQL. */
@Injectable()
export class PgViewRepository extends ViewRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async list(projectId: string, userId: string): Promise<ViewRecord[]> {
    return this.db.query<ViewRecord>(sql`SELECT ${VIEW_COLUMNS}
         FROM views v ${lensJoin(sql`${userId}`)}
        WHERE v.project_id = ${projectId} ORDER BY v.position COLLATE "C", v.id`);
  }

  async find(projectId: string, id: string, userId: string | null = null, lock = false): Promise<ViewRecord | null> {
    return this.db.one<ViewRecord>(sql`SELECT ${VIEW_COLUMNS}
         FROM views v ${lensJoin(sql`${userId}::uuid`)}
        WHERE v.project_id = ${projectId} AND v.id = ${id}${raw(lock ? ' FOR UPDATE OF v' : '')}`);
  }

  async insert(v: NewView): Promise<void> {
    const last = await this.db.one<{ position: string }>(
      sql`SELECT position FROM views WHERE project_id = ${v.projectId} ORDER BY position COLLATE "C" DESC LIMIT 1`,
    );
    const position = rankBetween(last?.position ?? null, null);
    await this.db.exec(sql`INSERT INTO views (id, project_id, name, kind, group_by_id, position, filters, sort)
      VALUES (${v.id}, ${v.projectId}, ${v.name}, ${v.kind}, ${v.groupById}, ${position}, ${json(v.filters ?? { rules: [] })}, ${json(v.sort ?? null)})`);
  }

  async save(v: ViewRecord): Promise<void> {
    const cardView = v.cardView === null ? null : json(v.cardView);
    await this.db.exec(sql`UPDATE views SET name = ${v.name}, kind = ${v.kind}, group_by_id = ${v.groupById}, position = ${v.position},
        filters = ${json(v.filters ?? { rules: [] })}, sort = ${json(v.sort ?? null)}, card_view = ${cardView}
      WHERE project_id = ${v.projectId} AND id = ${v.id}`);
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM views WHERE project_id = ${projectId} AND id = ${id}`);
  }

  async rankAfter(projectId: string, afterId: string | null, movingId: string): Promise<string> {
    const rows = await this.db.query<{ id: string; position: string }>(
      sql`SELECT id, position FROM views WHERE project_id = ${projectId} AND id <> ${movingId} ORDER BY position COLLATE "C", id`,
    );
    const at = afterId ? rows.findIndex((r) => r.id === afterId) : -1;
    return at < 0 ? rankBetween(null, rows[0]?.position ?? null) : rankBetween(rows[at].position, rows[at + 1]?.position ?? null);
  }

  async putLens(projectId: string, viewId: string, userId: string, rules: unknown[], sort: unknown): Promise<void> {
    await this.db.exec(sql`INSERT INTO lenses (project_id, view_id, user_id, rules, sort, updated_at)
      VALUES (${projectId}, ${viewId}, ${userId}, ${json(rules)}, ${json(sort ?? null)}, now())
      ON CONFLICT (project_id, view_id, user_id) DO UPDATE SET rules = EXCLUDED.rules, sort = EXCLUDED.sort, updated_at = now()`);
  }

  async deleteLens(projectId: string, viewId: string, userId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM lenses WHERE project_id = ${projectId} AND view_id = ${viewId} AND user_id = ${userId}`);
  }

  async projectCardView(projectId: string): Promise<{ rows?: Record<string, unknown> }> {
    const row = await this.db.one<{ cardView: { rows?: Record<string, unknown> } | null }>(
      sql`SELECT card_view AS "cardView" FROM projects WHERE id = ${projectId}`,
    );
    return row?.cardView ?? { rows: {} };
  }

  async saveProjectCardView(projectId: string, cardView: unknown): Promise<void> {
    await this.db.exec(sql`UPDATE projects SET card_view = ${json(cardView)} WHERE id = ${projectId}`);
  }
}
