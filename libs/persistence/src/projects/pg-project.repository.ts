import { Injectable } from '@nestjs/common';
import { fail, rankBetween } from '@board/kernel';
import { DoneWhen, Project, ProjectRepository, ProjectSeed } from '@board/projects';
import { Database, pgErrorCode } from '../database';

interface ProjectRow {
  id: string;
  name: string;
  key: string;
  owner_id: string;
  done_when: DoneWhen | null;
  releases: boolean;
  sprints: boolean;
  rules_text: string;
  rules_updated_at: Date | null;
  created_at: Date;
}

const toProject = (r: ProjectRow): Project =>
  Project.restore({
    id: r.id,
    name: r.name,
    key: r.key,
    ownerId: r.owner_id,
    doneWhen: r.done_when,
    releases: r.releases,
    sprints: r.sprints,
    rulesText: r.rules_text,
    rulesUpdatedAt: r.rules_updated_at,
    createdAt: r.created_at,
  });

@Injectable()
export class PgProjectRepository extends ProjectRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async findById(id: string): Promise<Project | null> {
    const row = await this.db.one<ProjectRow>('SELECT * FROM projects WHERE id = $1', [id]);
    return row ? toProject(row) : null;
  }

  async keyTaken(key: string, exceptProjectId?: string): Promise<boolean> {
    const row = await this.db.one('SELECT 1 FROM projects WHERE key = $1 AND id IS DISTINCT FROM $2', [key, exceptProjectId ?? null]);
    return row !== null;
  }

  async insert(project: Project, seed: ProjectSeed): Promise<void> {
    const p = project.snapshot;
    await this.db.transaction(async () => {
      try {
        await this.db.exec(
          `INSERT INTO projects (id, name, key, owner_id, done_when, card_view, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [p.id, p.name, p.key, p.ownerId, JSON.stringify(p.doneWhen), JSON.stringify(seed.cardView), p.createdAt],
        );
      } catch (error) {
        if (pgErrorCode(error).constraint === 'projects_key') fail('project.key_taken', { key: p.key });
        throw error;
      }
      const s = seed.status;
      await this.db.exec(`INSERT INTO properties (id, project_id, name, type, position, config) VALUES ($1, $2, $3, $4, $5, $6)`, [
        s.id, p.id, s.name, s.type, s.position, JSON.stringify(s.config),
      ]);
      for (const o of s.options) {
        await this.db.exec(`INSERT INTO options (id, project_id, property_id, name, color, position) VALUES ($1, $2, $3, $4, $5, $6)`, [
          o.id, p.id, s.id, o.name, o.color, o.position,
        ]);
      }
      const v = seed.view;
      await this.db.exec(
        `INSERT INTO views (id, project_id, name, kind, group_by_id, position, is_default) VALUES ($1, $2, $3, $4, $5, $6, true)`,
        [v.id, p.id, v.name, v.kind, v.groupById, v.position],
      );
    });
  }

  async save(project: Project): Promise<void> {
    const p = project.snapshot;
    try {
      await this.db.exec(
        `UPDATE projects SET name = $2, key = $3, owner_id = $4, done_when = $5, releases = $6, sprints = $7,
           rules_text = $8, rules_updated_at = $9 WHERE id = $1`,
        [p.id, p.name, p.key, p.ownerId, JSON.stringify(p.doneWhen), p.releases, p.sprints, p.rulesText, p.rulesUpdatedAt],
      );
    } catch (error) {
      if (pgErrorCode(error).constraint === 'projects_key') fail('project.key_taken', { key: p.key });
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.db.exec('DELETE FROM projects WHERE id = $1', [id]);
  }

  async propertyOptions(projectId: string, propertyId: string): Promise<{ type: string; optionIds: string[] } | null> {
    const prop = await this.db.one<{ type: string }>(`SELECT type FROM properties WHERE project_id = $1 AND id = $2`, [projectId, propertyId]);
    if (!prop) return null;
    const rows = await this.db.query<{ id: string }>('SELECT id FROM options WHERE project_id = $1 AND property_id = $2', [projectId, propertyId]);
    return { type: prop.type, optionIds: rows.map((r) => r.id) };
  }

  async hasProperty(projectId: string, match: 'dated_select' | 'iteration'): Promise<boolean> {
    const sql =
      match === 'iteration'
        ? `SELECT 1 FROM properties WHERE project_id = $1 AND type = 'iteration' LIMIT 1`
        : `SELECT 1 FROM properties WHERE project_id = $1 AND type = 'select' AND (config->>'dated')::boolean IS TRUE LIMIT 1`;
    return (await this.db.one(sql, [projectId])) !== null;
  }

  async addProperty(projectId: string, property: { id: string; name: string; type: string; config: Record<string, unknown> }): Promise<void> {
    const last = await this.db.one<{ position: string }>(
      `SELECT position FROM properties WHERE project_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1`,
      [projectId],
    );
    await this.db.exec(`INSERT INTO properties (id, project_id, name, type, position, config) VALUES ($1, $2, $3, $4, $5, $6)`, [
      property.id, projectId, property.name, property.type, rankBetween(last?.position ?? null, null), JSON.stringify(property.config),
    ]);
  }
}
