import { Injectable } from '@nestjs/common';
import { CreateContext, CreateInput, CreateOutcome, DoneWhen, MAX_PROJECT_TASKS, TaskCreateRepository } from '@board/tasks';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/pg-property-defs.query';
import { StatementWrite } from '@board/kernel';
import { StatementShape } from '../activity/pg-statement-write';
import { compileOnce, fromParams, sql } from '../sql';
import { xminFingerprint } from './fingerprint.sql';

/**
 * What the values of a create are checked against: the xmin fingerprint of the project's
 * properties, options and members (any committed change moves it). `board_create_task` compares
 * the same text under the lock.
 */
const DEFS_FINGERPRINT = (project: unknown) => xminFingerprint(project, [{ table: 'properties' }, { table: 'options' }, { table: 'members' }]);

interface ContextRow {
  defs: DefJson[];
  member_ids: string[];
  fp: string;
  key: string;
  done_when: DoneWhen | null;
  first: string | null;
  last: string | null;
}

// Compiled once: the texts are also the prepared statements' keys.
const LOAD = compileOnce<'projectId'>((slot) => {
  const project = slot('projectId');
  return sql`SELECT ${fromParams((p) => defsJson(p(project)))} AS defs, (SELECT COALESCE(json_agg(user_id), '[]') FROM members WHERE project_id = ${project}) AS member_ids,
              ${DEFS_FINGERPRINT(project)} AS fp, pr.key, pr.done_when,
              (SELECT position FROM tasks WHERE project_id = ${project} ORDER BY position COLLATE "C" LIMIT 1) AS first,
              (SELECT position FROM tasks WHERE project_id = ${project} ORDER BY position COLLATE "C" DESC LIMIT 1) AS last
         FROM projects pr
        WHERE pr.id = ${project}`;
});

/** What board_create_task answers: a created task's number and rank, nulls otherwise. */
type CreateRow =
  | { outcome: 'created'; task_number: number; task_position: string; edge: string | null }
  | { outcome: 'moved'; task_number: null; task_position: null; edge: string | null }
  | { outcome: 'stale' | 'full'; task_number: null; task_position: null; edge: null };

type CreateSlot = 'projectId' | 'id' | 'title' | 'description' | 'values' | 'createdBy' | 'now' | 'atTop' | 'ranks' | 'defsFingerprint' | 'maxTasks';

// One shape: the unit of work adds the `created` line, its outbox rows and the notices, gated on `landed`.
const CREATE = new StatementShape<CreateSlot, CreateRow, CreateOutcome>(
  (slot) => ({
    ctes: sql`c AS MATERIALIZED (
         SELECT * FROM board_create_task(${slot('projectId')}, ${slot('id')}, ${slot('title')}, ${slot('description')}, ${slot('values')}::jsonb, ${slot('createdBy')}, ${slot('now')}, ${slot('atTop')}, ${slot('ranks')}::text[], ${slot('defsFingerprint')}, ${slot('maxTasks')}::int)),
       landed AS (SELECT 1 FROM c WHERE c.outcome = 'created')`,
    columns: sql`c.outcome, c.task_number, c.task_position, c.edge`,
    from: sql`c`,
    taskNumber: sql`(SELECT task_number FROM c)`,
  }),
  (row) => {
    if (row.outcome === 'created') return { outcome: 'created', number: row.task_number, position: row.task_position };
    if (row.outcome === 'moved') return { outcome: 'moved', edge: row.edge };
    if (row.outcome === 'full') return { outcome: 'full' };
    return { outcome: 'stale' };
  },
);

/**
 * Task create at the top or the end in one statement (bench/README.md, finding 3): the
 * `board_create_task` function takes the project lock, checks the fingerprint, picks the first
 * offered rank past the edge, numbers and counts the task (refused when the project is full) and inserts it; around it the unit of work's one-statement
 * form writes the `created` feed line, its webhook outbox rows and both notices (`StatementShape`). The commit that follows the
 * statement releases the lock, so a project's creates queue for PostgreSQL's time only.
 */
@Injectable()
export class PgTaskCreateRepository extends TaskCreateRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async load(projectId: string): Promise<CreateContext | null> {
    const head = await this.db.one<ContextRow>(LOAD.text, LOAD.values({ projectId }), { prepare: true });
    if (!head) return null;
    return {
      defs: defsFromJson(head.defs),
      memberIds: new Set(head.member_ids),
      defsFingerprint: head.fp,
      key: head.key,
      doneWhen: head.done_when,
      first: head.first,
      last: head.last,
    };
  }

  create(input: CreateInput): StatementWrite<CreateOutcome> {
    return CREATE.with({
      projectId: input.projectId,
      id: input.id,
      title: input.title,
      description: input.description,
      values: JSON.stringify(input.values),
      createdBy: input.createdBy,
      now: input.now,
      atTop: input.atTop,
      ranks: input.ranks,
      defsFingerprint: input.defsFingerprint,
      maxTasks: MAX_PROJECT_TASKS,
    });
  }
}
