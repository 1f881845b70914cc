import { Injectable } from '@nestjs/common';
import type { ExistingProperty, ImportPlan } from '@board/imports';
import { Database } from '../database';

/** What an import maps onto, read in one statement. */
export interface ImportHead {
  key: string;
  lastTaskRank: string | null;
  properties: ExistingProperty[];
  /** Of the named source ids, those already imported: source id → task number. */
  imported: Map<string, number>;
}

const HEAD_SQL = `
  SELECT pr.key,
         (SELECT position FROM tasks WHERE project_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1) AS last_task_rank,
         (SELECT COALESCE(json_agg(json_build_object(
                   'id', p.id, 'name', p.name, 'type', p.type, 'position', p.position,
                   'options', (SELECT COALESCE(json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color, 'position', o.position)
                                                        ORDER BY o.position COLLATE "C", o.id), '[]')
                                 FROM options o WHERE o.project_id = $1 AND o.property_id = p.id))
                 ORDER BY p.position COLLATE "C", p.id), '[]')
            FROM properties p WHERE p.project_id = $1) AS properties,
         (SELECT COALESCE(json_agg(json_build_array(s.source_id, t.number)), '[]')
            FROM task_sources s JOIN tasks t ON t.project_id = s.project_id AND t.id = s.task_id
           WHERE s.project_id = $1 AND s.source_id = ANY($2::text[])) AS imported
    FROM projects pr
   WHERE pr.id = $1`;

/**
 * The writes of an import, set-based: a fixed number of statements whatever the number of cards
 * (new properties with their card rows, new options, tasks with their numbers and sources,
 * checklist items, comments, and the feed lines with the one webhook ring), each one unnest.
 * Runs inside the caller's transaction, under the project lock.
 */
@Injectable()
export class ImportRepository {
  constructor(private readonly db: Database) {}

  async head(projectId: string, sourceIds: string[]): Promise<ImportHead | null> {
    const row = await this.db.one<{ key: string; last_task_rank: string | null; properties: ExistingProperty[]; imported: [string, number][] }>(
      HEAD_SQL,
      [projectId, sourceIds],
    );
    if (!row) return null;
    return { key: row.key, lastTaskRank: row.last_task_rank, properties: row.properties, imported: new Map(row.imported) };
  }

  /**
   * Writes the plan: properties, options, tasks, checklists and comments. Its `import` feed lines
   * and their one webhook ring are the caller's events (the unit of work writes them).
   */
  async write(projectId: string, actorId: string, plan: ImportPlan, now: Date): Promise<void> {
    if (plan.tasks.length === 0) return;
    const { properties, options, tasks, checklist, comments } = plan;
    if (properties.length > 0) {
      const rows: Record<string, { place: string; mode: string }> = {};
      for (const p of properties) rows[p.id] = p.cardRow;
      await this.db.exec(
        `WITH p AS (
           INSERT INTO properties (id, project_id, name, type, position)
           SELECT id, $1, name, type, position FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) AS u(id, name, type, position)
           RETURNING id)
         UPDATE projects
            SET card_view = COALESCE(card_view, '{}'::jsonb) || jsonb_build_object('rows', COALESCE(card_view->'rows', '{}'::jsonb) || $6::jsonb)
          WHERE id = $1 AND (SELECT count(*) FROM p) > 0`,
        [projectId, properties.map((p) => p.id), properties.map((p) => p.name), properties.map((p) => p.type), properties.map((p) => p.position), JSON.stringify(rows)],
      );
    }
    if (options.length > 0) {
      await this.db.exec(
        `INSERT INTO options (id, project_id, property_id, name, color, position)
         SELECT id, $1, property_id, name, color, position
           FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS u(id, property_id, name, color, position)`,
        [projectId, options.map((o) => o.id), options.map((o) => o.propertyId), options.map((o) => o.name), options.map((o) => o.color), options.map((o) => o.position)],
      );
    }
    // Numbers continue the project's sequence in the order of the cards; the sources go in with the tasks.
    await this.db.exec(
      `WITH counter AS (
         UPDATE projects SET task_counter = task_counter + $2 WHERE id = $1 RETURNING task_counter - $2 AS base),
       input AS (
         SELECT * FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::boolean[], $9::text[])
                  WITH ORDINALITY AS i(id, title, description, position, vals, archived, source_id, ord)),
       t AS (
         INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at, archived_at)
         SELECT i.id, $1, (c.base + i.ord)::int, i.title, i.description, i.position, i.vals, $10, $11, $11, CASE WHEN i.archived THEN $11::timestamptz END
           FROM input i CROSS JOIN counter c
         RETURNING id)
       INSERT INTO task_sources (project_id, source_id, task_id)
       SELECT $1, i.source_id, i.id FROM input i WHERE (SELECT count(*) FROM t) > 0`,
      [
        projectId,
        tasks.length,
        tasks.map((t) => t.id),
        tasks.map((t) => t.title),
        tasks.map((t) => t.description),
        tasks.map((t) => t.position),
        tasks.map((t) => JSON.stringify(t.values)),
        tasks.map((t) => t.archived),
        tasks.map((t) => t.sourceId),
        actorId,
        now,
      ],
    );
    if (checklist.length > 0) {
      await this.db.exec(
        `INSERT INTO checklist_items (id, project_id, task_id, text, done, position, created_at)
         SELECT gen_random_uuid(), $1, task_id, text, done, position, $6
           FROM unnest($2::uuid[], $3::text[], $4::boolean[], $5::text[]) AS u(task_id, text, done, position)`,
        [projectId, checklist.map((c) => c.taskId), checklist.map((c) => c.text), checklist.map((c) => c.done), checklist.map((c) => c.position), now],
      );
    }
    if (comments.length > 0) {
      // A task's comments read oldest first by created_at: a microsecond apart keeps Trello's order.
      await this.db.exec(
        `INSERT INTO comments (id, project_id, task_id, author_id, body, created_at)
         SELECT gen_random_uuid(), $1, task_id, $2, body, $5::timestamptz + ord * interval '1 microsecond'
           FROM unnest($3::uuid[], $4::text[]) WITH ORDINALITY AS u(task_id, body, ord)`,
        [projectId, actorId, comments.map((c) => c.taskId), comments.map((c) => c.body), now],
      );
    }
  }
}
