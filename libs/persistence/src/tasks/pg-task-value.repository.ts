import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TaskValueRepository, ValueWrite, ValueWriteContext } from '@board/tasks';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/property-defs.query';
import { CHANGE_CHANNEL, changePayload } from '../activity/pg-change.announcer';
import { WEBHOOK_CHANNEL } from '../activity/pg-activity.recorder';
import { deliveriesCte, lineCte, noticeColumns } from '../activity/feed.sql';
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

type WriteSlot = 'projectId' | 'taskId' | 'values' | 'expected' | 'now' | 'lineId' | 'actorId' | 'line' | 'payload' | 'propertyId' | 'optionIds' | 'memberIds';

const WRITE = compileOnce<WriteSlot>((slot) => {
  const project = slot('projectId');
  const line = slot('line');
  const feed = fromParams((p) => `${lineCte({ from: `upd WHERE ${p(line)}::jsonb IS NOT NULL`, id: p(slot('lineId')), project: p(project), task: p(slot('taskId')), actor: p(slot('actorId')), kind: "'value'", data: `${p(line)}::jsonb` })},
       ${deliveriesCte(p(project), 'NULL')}`);
  const notices = fromParams((p) => noticeColumns({ ringWhen: 'upd', changeChannel: p(CHANGE_CHANNEL), payload: p(slot('payload')), webhookChannel: p(WEBHOOK_CHANNEL), project: p(project) }));
  return sql`WITH upd AS (
         UPDATE tasks SET "values" = ${slot('values')}::jsonb, updated_at = ${slot('now')}
          WHERE project_id = ${project} AND id = ${slot('taskId')} AND "values" = ${slot('expected')}::jsonb
            -- Deleted meanwhile (its delete scrubs values): read again and answer as the read finds it.
            AND ${valueRefersExist(project, slot('propertyId'), slot('optionIds'), slot('memberIds'))}
         RETURNING id),
       ${feed}
       SELECT (SELECT count(*) FROM upd)::int AS written,
              ${notices}`;
});

/**
 * The one-value write without a transaction of round trips (bench/README.md, finding 4): read
 * the task and the project's properties and members in one query, decide in the aggregate, then
 * write the values, the feed line, its webhook outbox rows and both notices in one statement
 * that lands only if the task's values are still the ones read (compare and set). A write that
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

  async writeIfUnchanged(input: ValueWrite): Promise<boolean> {
    const t = input.task.snapshot;
    const row = await this.db.single<{ written: number }>(
      WRITE.text,
      WRITE.values({
        projectId: t.projectId,
        taskId: t.id,
        values: JSON.stringify(t.values),
        expected: JSON.stringify(input.expected),
        now: input.now,
        lineId: randomUUID(),
        actorId: input.actorId,
        line: input.line === null ? null : JSON.stringify(input.line),
        payload: changePayload(input.notice),
        propertyId: input.refers.propertyId,
        optionIds: input.refers.optionIds,
        memberIds: input.refers.memberIds,
      }),
      { prepare: true },
    );
    return row.written === 1;
  }
}
