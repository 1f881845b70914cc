import { Injectable } from '@nestjs/common';
import { ExistingProperty, ImportHead, ImportPlan, ImportRepository } from '@board/imports';
import { Database } from '../database';
import { Sql, sql } from '../sql';
import { TASK_SOURCE_COLUMNS } from './task-sources.table';

/** What an import maps onto, in one statement. */
const headSql = (projectId: string, sourceIds: string[]): Sql => sql`
  SELECT pr.key, pr.task_count,
         (SELECT position FROM tasks WHERE project_id = ${projectId} ORDER BY position COLLATE "C" DESC LIMIT 1) AS last_task_rank,
         (SELECT COALESCE(json_agg(json_build_object(
                   'id', p.id, 'name', p.name, 'type', p.type, 'position', p.position,
                   'options', (SELECT COALESCE(json_agg(json_build_object('id', o.id, 'name', o.name, 'color', o.color, 'position', o.position)
                                                        ORDER BY o.position COLLATE "C", o.id), '[]')
                                 FROM options o WHERE o.project_id = ${projectId} AND o.property_id = p.id))
                 ORDER BY p.position COLLATE "C", p.id), '[]')
            FROM properties p WHERE p.project_id = ${projectId}) AS properties,
         (SELECT COALESCE(json_agg(json_build_array(s.source_id, t.number)), '[]')
            FROM task_sources s JOIN tasks t ON t.project_id = s.project_id AND t.id = s.task_id
           WHERE s.project_id = ${projectId} AND s.source_id = ANY(${sourceIds}::text[])) AS imported
    FROM projects pr
   WHERE pr.id = ${projectId}`;

/**
 * The writes of an import in PostgreSQL, set-based: a fixed number of statements whatever the
 * number of cards (new properties with their card rows, new options, tasks with their numbers and
 * sources, checklist items, comments), each one unnest.
 */
@Injectable()
export class PgImportRepository extends ImportRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async head(projectId: string, sourceIds: string[]): Promise<ImportHead | null> {
    const row = await this.db.one<{ key: string; task_count: number; last_task_rank: string | null; properties: ExistingProperty[]; imported: [string, number][] }>(
      headSql(projectId, sourceIds),
    );
    if (!row) return null;
    return { key: row.key, lastTaskRank: row.last_task_rank, properties: row.properties, imported: new Map(row.imported), taskCount: row.task_count };
  }

  async write(projectId: string, actorId: string, plan: ImportPlan, now: Date): Promise<void> {
    if (plan.tasks.length === 0) return;
    const { properties, options, tasks, checklist, comments } = plan;
    if (properties.length > 0) {
      const rows: Record<string, { place: string; mode: string }> = {};
      for (const p of properties) rows[p.id] = p.cardRow;
      await this.db.exec(sql`WITH p AS (
           INSERT INTO properties (id, project_id, name, type, position)
           SELECT id, ${projectId}, name, type, position
             FROM unnest(${properties.map((p) => p.id)}::uuid[], ${properties.map((p) => p.name)}::text[], ${properties.map((p) => p.type)}::text[],
                         ${properties.map((p) => p.position)}::text[]) AS u(id, name, type, position)
           RETURNING id)
         UPDATE projects
            SET card_view = COALESCE(card_view, '{}'::jsonb) || jsonb_build_object('rows', COALESCE(card_view->'rows', '{}'::jsonb) || ${JSON.stringify(rows)}::jsonb)
          WHERE id = ${projectId} AND (SELECT count(*) FROM p) > 0`);
    }
    if (options.length > 0) {
      await this.db.exec(sql`INSERT INTO options (id, project_id, property_id, name, color, position)
         SELECT id, ${projectId}, property_id, name, color, position
           FROM unnest(${options.map((o) => o.id)}::uuid[], ${options.map((o) => o.propertyId)}::uuid[], ${options.map((o) => o.name)}::text[],
                       ${options.map((o) => o.color)}::text[], ${options.map((o) => o.position)}::text[]) AS u(id, property_id, name, color, position)`);
    }
    // Numbers continue the project's sequence in the order of the cards, and the tasks are counted
    // in with them (migration 1765000200000); the sources go in with the tasks.
    await this.db.exec(sql`WITH counter AS (
         UPDATE projects SET task_counter = task_counter + ${tasks.length}, task_count = task_count + ${tasks.length}
          WHERE id = ${projectId} RETURNING task_counter - ${tasks.length} AS base),
       input AS (
         SELECT * FROM unnest(${tasks.map((t) => t.id)}::uuid[], ${tasks.map((t) => t.title)}::text[], ${tasks.map((t) => t.description)}::text[],
                              ${tasks.map((t) => t.position)}::text[], ${tasks.map((t) => JSON.stringify(t.values))}::jsonb[],
                              ${tasks.map((t) => t.archived)}::boolean[], ${tasks.map((t) => t.sourceId)}::text[])
                  WITH ORDINALITY AS i(id, title, description, position, vals, archived, source_id, ord)),
       t AS (
         INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at, archived_at)
         SELECT i.id, ${projectId}, (c.base + i.ord)::int, i.title, i.description, i.position, i.vals, ${actorId}, ${now}, ${now},
                CASE WHEN i.archived THEN ${now}::timestamptz END
           FROM input i CROSS JOIN counter c
         RETURNING id)
       INSERT INTO task_sources (${TASK_SOURCE_COLUMNS})
       SELECT ${projectId}, i.source_id, i.id FROM input i WHERE (SELECT count(*) FROM t) > 0`);
    if (checklist.length > 0) {
      await this.db.exec(sql`INSERT INTO checklist_items (id, project_id, task_id, text, done, position, created_at)
         SELECT gen_random_uuid(), ${projectId}, task_id, text, done, position, ${now}
           FROM unnest(${checklist.map((c) => c.taskId)}::uuid[], ${checklist.map((c) => c.text)}::text[], ${checklist.map((c) => c.done)}::boolean[],
                       ${checklist.map((c) => c.position)}::text[]) AS u(task_id, text, done, position)`);
    }
    if (comments.length > 0) {
      // A task's comments read oldest first by created_at: a microsecond apart keeps Trello's order.
      await this.db.exec(sql`INSERT INTO comments (id, project_id, task_id, author_id, body, created_at)
         SELECT gen_random_uuid(), ${projectId}, task_id, ${actorId}, body, ${now}::timestamptz + ord * interval '1 microsecond'
           FROM unnest(${comments.map((c) => c.taskId)}::uuid[], ${comments.map((c) => c.body)}::text[]) WITH ORDINALITY AS u(task_id, body, ord)`);
    }
  }
}
