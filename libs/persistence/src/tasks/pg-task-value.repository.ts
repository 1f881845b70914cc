import { Injectable } from '@nestjs/common';
import { TaskValueRepository, ValueWrite, ValueWriteContext } from '@board/tasks';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/pg-property-defs.query';
import { StatementWrite } from '@board/kernel';
import { StatementShape } from '../activity/pg-statement-write';
import { compileOnce, fromParams, Sql, sql } from '../sql';
import { taskColumns, TaskRow, toTask } from './tasks.table';

/** One row; the task's columns are null when there is no such task. */
type ContextRow = Partial<TaskRow> & { defs: NamedDefJson[]; members: { ids: string[]; names: string[] } };
/** LOAD asks defsJson for the option names too. */
type NamedDefJson = DefJson & { optionNames: string[] };

/**
 * The property, options and people a value names (`valueRefers` of @board/properties) are all
 * still there, in project `project` (values, or slots of `compileOnce`). The live-table half of
 * normalizeValue's check; test/integration/value-refers-sql.test.ts proves the two agree.
 */
export const valueRefersExist = (project: unknown, property: unknown, options: unknown, members: unknown): Sql =>
  sql`(EXISTS (SELECT 1 FROM properties WHERE project_id = ${project} AND id = ${property})
     AND (SELECT count(*) FROM options WHERE project_id = ${project} AND property_id = ${property} AND id = ANY(${options}::uuid[])) = cardinality(${options}::uuid[])
     AND (SELECT count(*) FROM members WHERE project_id = ${project} AND user_id = ANY(${members}::uuid[])) = cardinality(${members}::uuid[]))`;

// Compiled once: the texts are also the prepared statements' keys.
const LOAD = compileOnce<'projectId' | 'taskId'>((slot) => {
  const project = slot('projectId');
  return sql`SELECT ${taskColumns('t.')}, ${fromParams((p) => defsJson(p(project), true))} AS defs,
        (SELECT json_build_object('ids', COALESCE(json_agg(m.user_id ORDER BY m.user_id), '[]'), 'names', COALESCE(json_agg(u.name ORDER BY m.user_id), '[]'))
           FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ${project}) AS members
   FROM (SELECT 1) one LEFT JOIN tasks t ON t.project_id = ${project} AND t.id = ${slot('taskId')}`;
});

type WriteSlot = 'projectId' | 'taskId' | 'values' | 'expected' | 'now' | 'propertyId' | 'optionIds' | 'memberIds';

// One shape: the unit of work adds the `value` line (when the write declares one), its outbox rows and the notices, gated on `landed`.
const WRITE = new StatementShape<WriteSlot, { written: number }, boolean>(
  (slot) => {
    const project = slot('projectId');
    return {
      ctes: sql`upd AS (
         UPDATE tasks SET "values" = ${slot('values')}::jsonb, updated_at = ${slot('now')}
          WHERE project_id = ${project} AND id = ${slot('taskId')} AND "values" = ${slot('expected')}::jsonb
            -- Deleted meanwhile (its delete scrubs values): read again and answer as the read finds it.
            AND ${valueRefersExist(project, slot('propertyId'), slot('optionIds'), slot('memberIds'))}
         RETURNING id),
       landed AS (SELECT id FROM upd)`,
      columns: sql`(SELECT count(*) FROM upd)::int AS written`,
    };
  },
  (row) => row.written === 1,
);

/**
 * The one-value write without a transaction of round trips (bench/README.md, finding 4): read
 * the task and the project's properties and members in one query, decide in the aggregate, then
 * write the values in one statement (the unit of work adds the feed line, its webhook outbox rows
 * and both notices to it) that lands only if the task's values are still the ones read (compare and set). A write that
 * lost the race reads again; the caller falls back to the locked path after a few tries.
 */
@Injectable()
export class PgTaskValueRepository extends TaskValueRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async load(projectId: string, taskId: string): Promise<ValueWriteContext> {
    const row = await this.db.single<ContextRow>(LOAD.text, LOAD.values({ projectId, taskId }), { prepare: true });
    const names = new Map<string, string>();
    row.members.ids.forEach((id, i) => names.set(id, row.members.names[i]));
    for (const d of row.defs) d.optionIds.forEach((id, i) => names.set(id, d.optionNames[i]));
    const task = row.id ? toTask(row as TaskRow) : null;
    return { defs: defsFromJson(row.defs), memberIds: new Set(row.members.ids), names, task };
  }

  writeIfUnchanged(input: ValueWrite): StatementWrite<boolean> {
    const t = input.task.snapshot;
    return WRITE.with({
      projectId: t.projectId,
      taskId: t.id,
      values: JSON.stringify(t.values),
      expected: JSON.stringify(input.expected),
      now: input.now,
      propertyId: input.refers.propertyId,
      optionIds: input.refers.optionIds,
      memberIds: input.refers.memberIds,
    });
  }
}
