import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreateContext, CreateInput, CreateOutcome, DoneWhen, MAX_PROJECT_TASKS, TaskCreateRepository } from '@board/tasks';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/property-defs.query';
import { CHANGE_CHANNEL, changePayload } from '../activity/pg-change.announcer';
import { WEBHOOK_CHANNEL } from '../activity/pg-activity.recorder';
import { deliveriesCte, lineCte, noticeColumns } from '../activity/feed.sql';
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

type CreateSlot =
  | 'projectId' | 'id' | 'title' | 'description' | 'values' | 'createdBy' | 'now' | 'atTop' | 'ranks' | 'defsFingerprint' | 'maxTasks' | 'lineId' | 'payload' | 'line';

const CREATE = compileOnce<CreateSlot>((slot) => {
  const project = slot('projectId');
  const feed = fromParams((p) => `${lineCte({ from: "c WHERE c.outcome = 'created'", id: p(slot('lineId')), project: p(project), task: p(slot('id')), actor: p(slot('createdBy')), kind: "'created'", data: `${p(slot('line'))}::jsonb` })},
       ${deliveriesCte(p(project), 'NULL', { taskNumber: '(SELECT task_number FROM c)' })}`);
  const notices = fromParams((p) => noticeColumns({ ringWhen: 'line', changeChannel: p(CHANGE_CHANNEL), payload: p(slot('payload')), webhookChannel: p(WEBHOOK_CHANNEL), project: p(project) }));
  return sql`WITH c AS MATERIALIZED (
         SELECT * FROM board_create_task(${project}, ${slot('id')}, ${slot('title')}, ${slot('description')}, ${slot('values')}::jsonb, ${slot('createdBy')}, ${slot('now')}, ${slot('atTop')}, ${slot('ranks')}::text[], ${slot('defsFingerprint')}, ${slot('maxTasks')}::int)),
       ${feed}
       SELECT c.outcome, c.task_number, c.task_position, c.edge,
              ${notices}
         FROM c`;
});

/**
 * Task create at the top or the end in one statement (bench/README.md, finding 3): the
 * `board_create_task` function takes the project lock, checks the fingerprint, picks the first
 * offered rank past the edge, numbers and counts the task (refused when the project is full) and inserts it; around it the same statement writes
 * the `created` feed line, its webhook outbox rows and both notices. The commit that follows the
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

  async create(input: CreateInput): Promise<CreateOutcome> {
    const row = await this.db.single<CreateRow>(
      CREATE.text,
      CREATE.values({
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
        lineId: randomUUID(),
        payload: changePayload(input.notice),
        line: JSON.stringify(input.line ?? {}),
      }),
      { prepare: true },
    );
    if (row.outcome === 'created') return { outcome: 'created', number: row.task_number, position: row.task_position };
    if (row.outcome === 'moved') return { outcome: 'moved', edge: row.edge };
    if (row.outcome === 'full') return { outcome: 'full' };
    return { outcome: 'stale' };
  }
}
