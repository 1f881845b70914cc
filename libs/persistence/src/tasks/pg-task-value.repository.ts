import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PropertyDef } from '@board/properties';
import { Task } from '@board/tasks';
import { Change } from '@board/kernel';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/property-defs.query';
import { TASK_COLUMNS, TaskRow, toTask } from './typeorm-task.repository';
import { CHANGE_CHANNEL, changePayload } from '../activity/pg-change.announcer';
import { WEBHOOK_CHANNEL } from '../activity/pg-activity.recorder';
import { deliveriesCte, lineCte, noticeColumns } from '../activity/feed.sql';

/** Everything a value write checks against, read in one query without locks. */
export interface ValueWriteContext {
  defs: PropertyDef[];
  memberIds: Set<string>;
  /** Option names by id and member names by user id: what a feed line shows. */
  names: Map<string, string>;
  /** The task (deleted ones too, as `TaskRepository.find`), or null. */
  task: Task | null;
}

/** One row; the task's columns are null when there is no such task. */
type ContextRow = Partial<TaskRow> & { defs: DefJson[]; members: { ids: string[]; names: string[] } };

/**
 * SQL text: the property, options and people a value names (`valueRefers` of @board/properties)
 * are all still there, in the project given by the placeholder `project`. The live-table half of
 * normalizeValue's check; test/integration/value-refers-sql.test.ts proves the two agree.
 */
export const valueRefersExist = (project: string, property: string, options: string, members: string): string =>
  `(EXISTS (SELECT 1 FROM properties WHERE project_id = ${project} AND id = ${property})
     AND (SELECT count(*) FROM options WHERE project_id = ${project} AND property_id = ${property} AND id = ANY(${options}::uuid[])) = cardinality(${options}::uuid[])
     AND (SELECT count(*) FROM members WHERE project_id = ${project} AND user_id = ANY(${members}::uuid[])) = cardinality(${members}::uuid[]))`;

// Built once: the text is also the prepared statement's key.
const LOAD_SQL = `SELECT ${TASK_COLUMNS.split(', ').map((c) => `t.${c}`).join(', ')}, ${defsJson('$1', true)} AS defs,
        (SELECT json_build_object('ids', COALESCE(json_agg(m.user_id ORDER BY m.user_id), '[]'), 'names', COALESCE(json_agg(u.name ORDER BY m.user_id), '[]'))
           FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = $1) AS members
   FROM (SELECT 1) one LEFT JOIN tasks t ON t.project_id = $1 AND t.id = $2`;

const WRITE_SQL = `WITH upd AS (
         UPDATE tasks SET "values" = $3::jsonb, updated_at = $5
          WHERE project_id = $1 AND id = $2 AND "values" = $4::jsonb
            -- Deleted meanwhile (its delete scrubs values): read again and answer as the read finds it.
            AND ${valueRefersExist('$1', '$12', '$13', '$14')}
         RETURNING id),
       ${lineCte({ from: 'upd WHERE $8::jsonb IS NOT NULL', id: '$6', project: '$1', task: '$2', actor: '$7', kind: "'value'", data: '$8::jsonb' })},
       ${deliveriesCte('$1', 'NULL')}
       SELECT (SELECT count(*) FROM upd)::int AS written,
              ${noticeColumns({ ringWhen: 'upd', changeChannel: '$9', payload: '$10', webhookChannel: '$11', project: '$1' })}`;

/**
 * The one-value write without a transaction of round trips (bench/README.md, finding 4): read
 * the task and the project's properties and members in one query, decide in the aggregate, then
 * write the values, the feed line, its webhook outbox rows and both notices in one statement
 * that lands only if the task's values are still the ones read (compare and set). A write that
 * lost the race reads again; the caller falls back to the locked path after a few tries.
 */
@Injectable()
export class TaskValueRepository {
  constructor(private readonly db: Database) {}

  async load(projectId: string, taskId: string): Promise<ValueWriteContext> {
    const row = await this.db.single<ContextRow>(LOAD_SQL, [projectId, taskId], { prepare: true });
    const names = new Map<string, string>();
    row.members.ids.forEach((id, i) => names.set(id, row.members.names[i]));
    for (const d of row.defs) d.optionIds.forEach((id, i) => names.set(id, d.optionNames![i]));
    const task = row.id ? toTask(row as TaskRow) : null;
    return { defs: defsFromJson(row.defs), memberIds: new Set(row.members.ids), names, task };
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
    const row = await this.db.single<{ written: number }>(
      WRITE_SQL,
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
    return row.written === 1;
  }
}
