import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Change } from '@board/kernel';
import { PropertyDef } from '@board/properties';
import { DoneWhen } from '@board/tasks';
import { Database } from '../database';
import { DefJson, defsFromJson, defsJson } from '../properties/property-defs.query';
import { CHANGE_CHANNEL, changePayload } from '../activity/pg-change.announcer';
import { WEBHOOK_CHANNEL } from '../activity/pg-activity.recorder';
import { deliveriesCte, lineCte, noticeColumns } from '../activity/feed.sql';
import { xminFingerprint } from './fingerprint.sql';

/** What a create at the top or the end checks and places against, read in one query without locks. */
export interface CreateContext {
  defs: PropertyDef[];
  memberIds: Set<string>;
  /** Fingerprint of the properties, options and members the values are checked against. */
  defsFingerprint: string;
  key: string;
  doneWhen: DoneWhen | null;
  /** Lowest and highest rank of the project's tasks (deleted ones too), null when it has none. */
  first: string | null;
  last: string | null;
}

export type CreateOutcome =
  | { outcome: 'created'; number: number; position: string }
  /** The properties, options or members changed since the read: check the values again. */
  | { outcome: 'stale' }
  /** Other tasks took every offered rank: `edge` is the edge now. */
  | { outcome: 'moved'; edge: string | null };

/**
 * What the values of a create are checked against: the xmin fingerprint of the project's
 * properties, options and members (any committed change moves it). `board_create_task` compares
 * the same text under the lock.
 */
const DEFS_FINGERPRINT = (p: string) => xminFingerprint(p, [{ table: 'properties' }, { table: 'options' }, { table: 'members' }]);

interface ContextRow {
  defs: DefJson[];
  member_ids: string[];
  fp: string;
  key: string;
  done_when: DoneWhen | null;
  first: string | null;
  last: string | null;
}

// Built once: the texts are also the prepared statements' keys.
const LOAD_SQL = `SELECT ${defsJson('$1')} AS defs, (SELECT COALESCE(json_agg(user_id), '[]') FROM members WHERE project_id = $1) AS member_ids,
              ${DEFS_FINGERPRINT('$1')} AS fp, pr.key, pr.done_when,
              (SELECT position FROM tasks WHERE project_id = $1 ORDER BY position COLLATE "C" LIMIT 1) AS first,
              (SELECT position FROM tasks WHERE project_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1) AS last
         FROM projects pr
        WHERE pr.id = $1`;

const CREATE_SQL = `WITH c AS MATERIALIZED (
         SELECT * FROM board_create_task($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9::text[], $10)),
       ${lineCte({ from: "c WHERE c.outcome = 'created'", id: '$11', project: '$1', task: '$2', actor: '$6', kind: "'created'", data: '$15::jsonb' })},
       ${deliveriesCte('$1', 'NULL', { taskNumber: '(SELECT task_number FROM c)' })}
       SELECT c.outcome, c.task_number, c.task_position, c.edge,
              ${noticeColumns({ ringWhen: 'line', changeChannel: '$12', payload: '$13', webhookChannel: '$14', project: '$1' })}
         FROM c`;

/**
 * Task create at the top or the end in one statement (bench/README.md, finding 3): the
 * `board_create_task` function takes the project lock, checks the fingerprint, picks the first
 * offered rank past the edge, numbers and inserts the task; around it the same statement writes
 * the `created` feed line, its webhook outbox rows and both notices. The commit that follows the
 * statement releases the lock, so a project's creates queue for PostgreSQL's time only.
 */
@Injectable()
export class TaskCreateRepository {
  constructor(private readonly db: Database) {}

  async load(projectId: string): Promise<CreateContext | null> {
    const head = await this.db.one<ContextRow>(LOAD_SQL, [projectId], { prepare: true });
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

  async create(input: {
    projectId: string;
    id: string;
    title: string;
    description: string;
    values: Record<string, unknown>;
    /** The `created` feed line's data (default `{}`). */
    line?: Record<string, unknown>;
    createdBy: string;
    now: Date;
    atTop: boolean;
    /** Ranks to choose from, nearest to the edge first. */
    ranks: string[];
    defsFingerprint: string;
    notice: Change;
  }): Promise<CreateOutcome> {
    const row = await this.db.single<{ outcome: CreateOutcome['outcome']; task_number: number | null; task_position: string | null; edge: string | null }>(
      CREATE_SQL,
      [
        input.projectId,
        input.id,
        input.title,
        input.description,
        JSON.stringify(input.values),
        input.createdBy,
        input.now,
        input.atTop,
        input.ranks,
        input.defsFingerprint,
        randomUUID(),
        CHANGE_CHANNEL,
        changePayload(input.notice),
        WEBHOOK_CHANNEL,
        JSON.stringify(input.line ?? {}),
      ],
      { prepare: true },
    );
    if (row.outcome === 'created') return { outcome: 'created', number: row.task_number!, position: row.task_position! };
    if (row.outcome === 'moved') return { outcome: 'moved', edge: row.edge };
    return { outcome: 'stale' };
  }
}
