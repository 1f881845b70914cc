import { Injectable } from '@nestjs/common';
import { rankBetween } from '@board/kernel';
import { Database } from '../database';

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
  cardView: { rows?: Record<string, unknown> } | null;
  /** The reader's own lens on the view, if they have one. */
  lensRules?: unknown[] | null;
  lensSort?: unknown;
}

const COLUMNS = `v.id, v.project_id AS "projectId", v.name, v.kind, v.group_by_id AS "groupById", v.position, v.is_default AS "isDefault",
  v.filters, v.sort, v.card_view AS "cardView"`;

/** Views and the lenses people keep on them. */
@Injectable()
export class ViewStore {
  constructor(private readonly db: Database) {}

  /** The project's views in order, each with `userId`'s lens. */
  async list(projectId: string, userId: string): Promise<ViewRecord[]> {
    return this.db.query<ViewRecord>(
      `SELECT ${COLUMNS}, l.rules AS "lensRules", l.sort AS "lensSort"
         FROM views v LEFT JOIN lenses l ON l.project_id = v.project_id AND l.view_id = v.id AND l.user_id = $2
        WHERE v.project_id = $1 ORDER BY v.position COLLATE "C", v.id`,
      [projectId, userId],
    );
  }

  async find(projectId: string, id: string, userId: string | null = null, lock = false): Promise<ViewRecord | null> {
    return this.db.one<ViewRecord>(
      `SELECT ${COLUMNS}, l.rules AS "lensRules", l.sort AS "lensSort"
         FROM views v LEFT JOIN lenses l ON l.project_id = v.project_id AND l.view_id = v.id AND l.user_id = $3
        WHERE v.project_id = $1 AND v.id = $2${lock ? ' FOR UPDATE OF v' : ''}`,
      [projectId, id, userId],
    );
  }

  async insert(v: Omit<ViewRecord, 'position' | 'isDefault' | 'cardView'>): Promise<void> {
    const last = await this.db.one<{ position: string }>(
      `SELECT position FROM views WHERE project_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1`,
      [v.projectId],
    );
    await this.db.exec(
      `INSERT INTO views (id, project_id, name, kind, group_by_id, position, filters, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [v.id, v.projectId, v.name, v.kind, v.groupById, rankBetween(last?.position ?? null, null), JSON.stringify(v.filters ?? { rules: [] }), JSON.stringify(v.sort ?? null)],
    );
  }

  async save(v: ViewRecord): Promise<void> {
    await this.db.exec(
      `UPDATE views SET name = $3, kind = $4, group_by_id = $5, position = $6, filters = $7, sort = $8, card_view = $9
        WHERE project_id = $1 AND id = $2`,
      [v.projectId, v.id, v.name, v.kind, v.groupById, v.position, JSON.stringify(v.filters ?? { rules: [] }), JSON.stringify(v.sort ?? null),
        v.cardView === null ? null : JSON.stringify(v.cardView)],
    );
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.db.exec('DELETE FROM views WHERE project_id = $1 AND id = $2', [projectId, id]);
  }

  /** A rank right after `afterId` among the project's views (the front when null or unknown). */
  async rankAfter(projectId: string, afterId: string | null, movingId: string): Promise<string> {
    const rows = await this.db.query<{ id: string; position: string }>(
      `SELECT id, position FROM views WHERE project_id = $1 AND id <> $2 ORDER BY position COLLATE "C", id`,
      [projectId, movingId],
    );
    const at = afterId ? rows.findIndex((r) => r.id === afterId) : -1;
    return at < 0 ? rankBetween(null, rows[0]?.position ?? null) : rankBetween(rows[at].position, rows[at + 1]?.position ?? null);
  }

  async putLens(projectId: string, viewId: string, userId: string, rules: unknown[], sort: unknown): Promise<void> {
    await this.db.exec(
      `INSERT INTO lenses (project_id, view_id, user_id, rules, sort, updated_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (project_id, view_id, user_id) DO UPDATE SET rules = EXCLUDED.rules, sort = EXCLUDED.sort, updated_at = now()`,
      [projectId, viewId, userId, JSON.stringify(rules), JSON.stringify(sort ?? null)],
    );
  }

  async deleteLens(projectId: string, viewId: string, userId: string): Promise<void> {
    await this.db.exec('DELETE FROM lenses WHERE project_id = $1 AND view_id = $2 AND user_id = $3', [projectId, viewId, userId]);
  }

  async projectCardView(projectId: string): Promise<Record<string, unknown>> {
    return (await this.db.one<{ card_view: Record<string, unknown> }>('SELECT card_view FROM projects WHERE id = $1', [projectId]))?.card_view ?? { rows: {} };
  }

  async saveProjectCardView(projectId: string, cardView: unknown): Promise<void> {
    await this.db.exec('UPDATE projects SET card_view = $2 WHERE id = $1', [projectId, JSON.stringify(cardView)]);
  }
}
