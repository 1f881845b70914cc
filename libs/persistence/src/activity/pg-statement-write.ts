import { StatementWrite } from '@board/kernel';
import { Database } from '../database';
import { compileOnce, Precompiled, Sql, sql } from '../sql';
import { EventWrites, lineValues } from './event-writes';
import { linesWriteCtes, noticeColumns } from './feed.sql';
import { CHANGE_CHANNEL, changePayload } from './pg-change.announcer';
import { WEBHOOK_CHANNEL } from './pg-activity.recorder';
import { IntentColumns, intentCte, intentValues, NOTIFICATION_COLUMNS, NOTIFICATION_CTES } from '../notifications/notifications.sql';

/** A repository's one-statement write, before the unit of work adds the events to it. */
export interface StatementParts {
  /** The write's CTEs (`WITH` left out); one is `landed`: one row when the write landed, none otherwise. */
  ctes: Sql;
  /** The answer's select-list, over `from`. */
  columns: Sql;
  /** What `columns` reads from (none: scalar columns only). */
  from?: Sql;
  /** The task's number, when the statement inserts the task itself (for the outbox rows' task key). */
  taskNumber?: Sql;
}

/** The events' values travel under these slot names (a write's own slots must not take them). */
type EventSlot = 'ev_project' | 'ev_ids' | 'ev_tasks' | 'ev_actors' | 'ev_kinds' | 'ev_data' | 'ev_payloads' | NotificationSlot;
type NotificationSlot = `nf_${keyof IntentColumns}`;
/** Which of the fixed texts a call takes: scalars or arrays for its events, and whether it tells people. */
type Form = `${'single' | 'many'}${'' | '+notify'}`;

/**
 * The shape of a one-statement write: its SQL with `slot(name)` where each call's values go, and
 * how its row reads. Built once per module (a constant); the statement with the events' CTEs is
 * compiled on first use, so its text is fixed and stays one prepared statement.
 */
export class StatementShape<S extends string, R, T> {
  /**
   * Fixed texts: at most one line and one notice (scalars, the usual case), or any number (arrays);
   * each with the notifications' CTEs only when the write tells someone (a value write that assigns
   * a person), so the usual write carries none of them.
   */
  private readonly compiled: Partial<Record<Form, Precompiled<S | EventSlot>>> = {};

  constructor(
    private readonly build: (slot: (name: S) => unknown) => StatementParts,
    readonly answer: (row: R) => T,
  ) {}

  /** The write of one call, as the unit of work takes it. */
  with(values: Readonly<Record<S, unknown>>): PgStatementWrite<T> {
    return new PgStatementWrite<T>((db, events) => this.run(db, values, events));
  }

  private statement(single: boolean, notify: boolean): Precompiled<S | EventSlot> {
    const form: Form = `${single ? 'single' : 'many'}${notify ? '+notify' : ''}`;
    return (this.compiled[form] ??= compileOnce<S | EventSlot>((slot) => {
      const parts = this.build(slot);
      const lines = linesWriteCtes(
        { project: slot('ev_project'), ids: slot('ev_ids'), tasks: slot('ev_tasks'), actors: slot('ev_actors'), kinds: slot('ev_kinds'), data: slot('ev_data') },
        { gate: sql`landed`, taskNumber: parts.taskNumber, single },
      );
      const notices = noticeColumns({ gate: sql`landed`, changeChannel: CHANGE_CHANNEL, payloads: slot('ev_payloads'), single, webhookChannel: WEBHOOK_CHANNEL });
      // The people the write assigned are told in the same statement, only if it landed.
      const told = notify
        ? sql`, ${intentCte(
            { kinds: slot('nf_kinds'), projects: slot('nf_projects'), tasks: slot('nf_tasks'), actors: slot('nf_actors'), texts: slot('nf_texts'), runs: slot('nf_runs'), recipients: slot('nf_recipients') },
            sql`landed`,
          )}, ${NOTIFICATION_CTES}`
        : sql``;
      return sql`WITH ${parts.ctes},
       ${lines}${told}
       SELECT ${parts.columns}, ${notices}${notify ? sql`, ${NOTIFICATION_COLUMNS}` : sql``}${parts.from ? sql` FROM ${parts.from}` : sql``}`;
    }));
  }

  private async run(db: Database, values: Readonly<Record<S, unknown>>, events: EventWrites): Promise<T> {
    if (events.batches.length > 1 || events.batches.some((b) => b.ringOnce)) throw new Error('a one-statement write takes the lines of one project, ringing once per line');
    const batch = events.batches[0];
    const line = lineValues(batch ?? { projectId: '', lines: [] });
    const payloads = events.notices.map(changePayload);
    const single = line.ids.length <= 1 && payloads.length <= 1;
    const one = <V>(list: V[]): V | V[] | null => (single ? (list[0] ?? null) : list);
    const named = {
      ...values,
      ev_project: batch ? batch.projectId : null,
      ev_ids: one(line.ids),
      ev_tasks: one(line.tasks),
      ev_actors: one(line.actors),
      ev_kinds: one(line.kinds),
      ev_data: one(line.data),
      ev_payloads: one(payloads),
      ...notificationSlots(events),
    } as Record<S | EventSlot, unknown>;
    const statement = this.statement(single, events.intents.length > 0);
    return this.answer(await db.single<R>(statement.text, statement.values(named), { prepare: true, writes: true }));
  }
}

function notificationSlots(events: EventWrites): Record<NotificationSlot, unknown> {
  const v = intentValues(events.intents);
  return { nf_kinds: v.kinds, nf_projects: v.projects, nf_tasks: v.tasks, nf_actors: v.actors, nf_texts: v.texts, nf_runs: v.runs, nf_recipients: v.recipients };
}

/** The concrete `StatementWrite` of the PostgreSQL adapters: runs itself once given the events. */
export class PgStatementWrite<T> extends StatementWrite<T> {
  constructor(readonly run: (db: Database, events: EventWrites) => Promise<T>) {
    super();
  }
}
