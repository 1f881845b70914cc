import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PropertyConfig, PropertyDef } from '@board/properties';
import { Task } from '@board/tasks';
import { Change } from '@board/kernel';
import { Database } from '../database';
import { CHANGE_CHANNEL, changePayload } from '../activity/pg-change.announcer';
import { deliveriesCte, WEBHOOK_CHANNEL } from '../activity/typeorm-activity.recorder';

/** Everything a value write checks against, read in one query without locks. */
export interface ValueWriteContext {
  defs: PropertyDef[];
  memberIds: Set<string>;
  /** Option names by id and member names by user id: what a feed line shows. */
  names: Map<string, string>;
  /** The task (deleted ones too, as `TaskRepository.find`), or null. */
  task: Task | null;
}

interface ContextRow {
  member_ids: string[];
  member_names: string[];
  task_id: string | null;
  number: number;
  title: string;
  description: string;
  position: string;
  values: Record<string, unknown>;
  parent_id: string | null;
  archived_at: Date | null;
  deleted_at: Date | null;
  id: string | null;
  name: string;
  type: string;
  prop_position: string;
  config: PropertyConfig;
  option_ids: string[];
  option_names: string[];
}

/**
 * The one-value write without a transaction of round trips (bench/README.md, finding 4): read
 * the task and the project's properties and members in one query, decide in the aggregate, then
 * write the values, the feed line, its webhook outbox rows and both notices in one statement
 * that lands only if the task's values are still the ones read (compare and set). A write that
 * lost the race reads again; the caller falls back to the locked path after a few tries.
 */
@Injectable()
export class TaskValueStore {
  constructor(private readonly db: Database) {}

  async load(projectId: string, taskId: string): Promise<ValueWriteContext> {
    const rows = await this.db.query<ContextRow>(
      `SELECT m.member_ids, m.member_names, t.id AS task_id, t.number, t.title, t.description, t.position, t."values",
              t.parent_id, t.archived_at, t.deleted_at,
              d.id, d.name, d.type, d.position AS prop_position, d.config, d.option_ids, d.option_names
         FROM (SELECT COALESCE(array_agg(m.user_id ORDER BY m.user_id), '{}') AS member_ids,
                      COALESCE(array_agg(u.name ORDER BY m.user_id), '{}') AS member_names
                 FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = $1) m
         LEFT JOIN tasks t ON t.project_id = $1 AND t.id = $2
         LEFT JOIN LATERAL (
           SELECT p.id, p.name, p.type, p.position, p.config,
                  COALESCE(array_agg(o.id ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_ids,
                  COALESCE(array_agg(o.name ORDER BY o.position COLLATE "C") FILTER (WHERE o.id IS NOT NULL), '{}') AS option_names
             FROM properties p
             LEFT JOIN options o ON o.property_id = p.id AND o.project_id = p.project_id
            WHERE p.project_id = $1
            GROUP BY p.id) d ON true
        ORDER BY d.position COLLATE "C", d.id`,
      [projectId, taskId],
      { prepare: true },
    );
    const first = rows[0];
    const names = new Map<string, string>();
    first?.member_ids.forEach((id, i) => names.set(id, first.member_names[i]));
    const defs: PropertyDef[] = [];
    for (const r of rows) {
      if (r.id === null) continue;
      r.option_ids.forEach((id, i) => names.set(id, r.option_names[i]));
      defs.push({ id: r.id, name: r.name, type: r.type, position: r.prop_position, config: r.config ?? {}, optionIds: new Set(r.option_ids) });
    }
    const task =
      first?.task_id != null
        ? Task.restore({
            id: first.task_id,
            projectId,
            number: first.number,
            title: first.title,
            description: first.description,
            position: first.position,
            values: first.values ?? {},
            parentId: first.parent_id,
            archivedAt: first.archived_at,
            deletedAt: first.deleted_at,
          })
        : null;
    return { defs, memberIds: new Set(first?.member_ids ?? []), names, task };
  }

  /**
   * Writes the task's values if they are still `expected`, with its `value` feed line (when
   * `line` is given), the line's webhook deliveries and the board notice, as one statement.
   * Answers false when the values had changed meanwhile (nothing was written).
   */
  async writeIfUnchanged(input: {
    task: Task;
    expected: Record<string, unknown>;
    now: Date;
    actorId: string;
    line: Record<string, unknown> | null;
    notice: Change;
    /** What the written value names, checked again by the statement: its property, options and people. */
    refers: { propertyId: string; optionIds: string[]; memberIds: string[] };
  }): Promise<boolean> {
    const t = input.task.snapshot;
    const row = await this.db.one<{ written: number }>(
      `WITH upd AS (
         UPDATE tasks SET "values" = $3::jsonb, updated_at = $5
          WHERE project_id = $1 AND id = $2 AND "values" = $4::jsonb
            -- Deleted meanwhile (its delete scrubs values): read again and answer as the read finds it.
            AND EXISTS (SELECT 1 FROM properties WHERE project_id = $1 AND id = $12)
            AND (SELECT count(*) FROM options WHERE project_id = $1 AND property_id = $12 AND id = ANY($13::uuid[])) = cardinality($13::uuid[])
            AND (SELECT count(*) FROM members WHERE project_id = $1 AND user_id = ANY($14::uuid[])) = cardinality($14::uuid[])
         RETURNING id),
       line AS (
         INSERT INTO activity (id, project_id, task_id, actor_id, kind, data)
         SELECT $6, $1, $2, $7, 'value', $8::jsonb FROM upd WHERE $8::jsonb IS NOT NULL
         RETURNING created_at),
       ${deliveriesCte('$1', `'value'`, '$2', 'NULL')}
       SELECT (SELECT count(*) FROM upd)::int AS written,
              (SELECT count(*) FROM upd, LATERAL (SELECT pg_notify($9, $10)) n)::int AS rang,
              (SELECT count(*) FROM (SELECT 1 FROM ins LIMIT 1) i, LATERAL (SELECT pg_notify($11, $1::text)) n)::int AS woke`,
      [
        t.projectId,
        t.id,
        JSON.stringify(t.values),
        JSON.stringify(input.expected),
        input.now,
        randomUUID(),
        input.actorId,
        input.line === null ? null : JSON.stringify(input.line),
        CHANGE_CHANNEL,
        changePayload(input.notice),
        WEBHOOK_CHANNEL,
        input.refers.propertyId,
        input.refers.optionIds,
        input.refers.memberIds,
      ],
      { prepare: true },
    );
    return row!.written === 1;
  }
}
