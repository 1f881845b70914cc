import { Injectable } from '@nestjs/common';
import { fail, rankBetween } from '@board/kernel';
import { Project, ProjectRepository, ProjectSeed } from '@board/projects';
import { Database, pgErrorCode } from '../database';
import { advisoryXactLock, projectKeyLockKey } from '../locks.sql';
import { sql } from '../sql';
import { PROJECT_COLUMNS, ProjectRow, toProject } from './projects.table';

@Injectable()
export class PgProjectRepository extends ProjectRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async findById(id: string): Promise<Project | null> {
    const row = await this.db.one<ProjectRow>(sql`SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = ${id}`);
    return row ? toProject(row) : null;
  }

  async keyTaken(key: string, exceptProjectId?: string): Promise<boolean> {
    const row = await this.db.one(sql`SELECT 1 FROM projects WHERE key = ${key} AND id IS DISTINCT FROM ${exceptProjectId ?? null}`);
    return row !== null;
  }

  async freeKey(bases: string[]): Promise<string | null> {
    if (bases.length === 0) return null;
    if (this.db.inTransaction) await this.db.exec(advisoryXactLock(projectKeyLockKey(bases[0])));
    // Per base: the numbers taken (1 for the bare base; 2 and up as written by keyBases, no leading
    // zero), then the first gap in them — found by lead() in one sorted pass, not one query a key.
    const row = await this.db.one<{ key: string }>(
      sql`WITH bases AS (
            SELECT base, ord FROM unnest(${bases}::text[]) WITH ORDINALITY AS b (base, ord)
          ),
          taken AS (
            SELECT DISTINCT b.ord, CASE WHEN p.key = b.base THEN 1 ELSE substr(p.key, length(b.base) + 1)::int END AS n
            -- Keys are letters and digits, all below '[' in byte order: the range is the prefix (index projects_key_bytes).
            FROM bases b JOIN projects p ON p.key COLLATE "C" >= b.base AND p.key COLLATE "C" < b.base || '['
            WHERE p.key = b.base OR substr(p.key, length(b.base) + 1) ~ '^([2-9]|[1-9][0-9]{1,7})$'
          ),
          firsts AS (
            SELECT b.ord, b.base,
              CASE WHEN NOT EXISTS (SELECT 1 FROM taken t WHERE t.ord = b.ord AND t.n = 1) THEN 1
                ELSE (SELECT min(s.n) + 1 FROM (SELECT t.n, lead(t.n) OVER (ORDER BY t.n) AS next FROM taken t WHERE t.ord = b.ord) s
                      WHERE s.next IS DISTINCT FROM s.n + 1)
              END AS n
            FROM bases b
          ),
          keys AS (
            SELECT ord, CASE WHEN n = 1 THEN base ELSE base || n END AS key FROM firsts
          )
          SELECT key FROM keys WHERE length(key) <= 10 ORDER BY ord LIMIT 1`,
    );
    return row?.key ?? null;
  }

  async insert(project: Project, seed: ProjectSeed): Promise<void> {
    const p = project.snapshot;
    await this.db.transaction(async () => {
      try {
        await this.db.exec(
          sql`INSERT INTO projects (id, name, key, owner_id, done_when, card_view, created_at)
              VALUES (${p.id}, ${p.name}, ${p.key}, ${p.ownerId}, ${JSON.stringify(p.doneWhen)}, ${JSON.stringify(seed.cardView)}, ${p.createdAt})`,
        );
      } catch (error) {
        if (pgErrorCode(error).constraint === 'projects_key') fail('project.key_taken', { key: p.key });
        throw error;
      }
      // Status, then the template's properties in order: each with its options.
      for (const s of [seed.status, ...seed.more]) {
        await this.db.exec(
          sql`INSERT INTO properties (id, project_id, name, type, position, config)
              VALUES (${s.id}, ${p.id}, ${s.name}, ${s.type}, ${s.position}, ${JSON.stringify(s.config)})`,
        );
        for (const o of s.options) {
          await this.db.exec(
            sql`INSERT INTO options (id, project_id, property_id, name, color, position) VALUES (${o.id}, ${p.id}, ${s.id}, ${o.name}, ${o.color}, ${o.position})`,
          );
        }
      }
      const v = seed.view;
      await this.db.exec(
        sql`INSERT INTO views (id, project_id, name, kind, group_by_id, position, is_default)
            VALUES (${v.id}, ${p.id}, ${v.name}, ${v.kind}, ${v.groupById}, ${v.position}, true)`,
      );
    });
  }

  async save(project: Project): Promise<void> {
    const p = project.snapshot;
    try {
      await this.db.exec(
        sql`UPDATE projects SET name = ${p.name}, key = ${p.key}, owner_id = ${p.ownerId}, done_when = ${JSON.stringify(p.doneWhen)},
              releases = ${p.releases}, sprints = ${p.sprints}, rules_text = ${p.rulesText}, rules_updated_at = ${p.rulesUpdatedAt},
              daily_budget_micros = ${p.dailyBudgetMicros}
            WHERE id = ${p.id}`,
      );
    } catch (error) {
      if (pgErrorCode(error).constraint === 'projects_key') fail('project.key_taken', { key: p.key });
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM projects WHERE id = ${id}`);
    this.db.credentialsChanged();
  }

  async propertyOptions(projectId: string, propertyId: string): Promise<{ type: string; optionIds: string[] } | null> {
    const prop = await this.db.one<{ type: string }>(sql`SELECT type FROM properties WHERE project_id = ${projectId} AND id = ${propertyId}`);
    if (!prop) return null;
    const rows = await this.db.query<{ id: string }>(sql`SELECT id FROM options WHERE project_id = ${projectId} AND property_id = ${propertyId}`);
    return { type: prop.type, optionIds: rows.map((r) => r.id) };
  }

  async hasProperty(projectId: string, match: 'dated_select' | 'iteration'): Promise<boolean> {
    const query =
      match === 'iteration'
        ? sql`SELECT 1 FROM properties WHERE project_id = ${projectId} AND type = 'iteration' LIMIT 1`
        : sql`SELECT 1 FROM properties WHERE project_id = ${projectId} AND type = 'select' AND (config->>'dated')::boolean IS TRUE LIMIT 1`;
    return (await this.db.one(query)) !== null;
  }

  async addProperty(projectId: string, property: { id: string; name: string; type: string; config: Record<string, unknown> }): Promise<void> {
    const last = await this.db.one<{ position: string }>(
      sql`SELECT position FROM properties WHERE project_id = ${projectId} ORDER BY position COLLATE "C" DESC LIMIT 1`,
    );
    const position = rankBetween(last?.position ?? null, null);
    await this.db.exec(
      sql`INSERT INTO properties (id, project_id, name, type, position, config)
          VALUES (${property.id}, ${projectId}, ${property.name}, ${property.type}, ${position}, ${JSON.stringify(property.config)})`,
    );
  }
}
