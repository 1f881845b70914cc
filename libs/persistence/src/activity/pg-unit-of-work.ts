import { Injectable } from '@nestjs/common';
import { DomainError, StatementWrite, UnitOfWork, UnitOfWorkOptions, Written } from '@board/kernel';
import { Database, pgErrorCode } from '../database';
import { PgChangeAnnouncer } from './pg-change.announcer';
import { PgActivityRecorder } from './pg-activity.recorder';
import { EventWrites, eventWrites } from './event-writes';
import { PgStatementWrite } from './pg-statement-write';
import { PgNotificationWriter } from '../notifications/pg-notification.writer';

/** How often a write ended by a deadlock (or a serialisation failure) is run, in all. */
export const WRITE_ATTEMPTS = 3;
/** deadlock_detected, serialization_failure: the transaction did nothing, and may simply run again. */
const RETRIED_CODES = new Set(['40P01', '40001']);

/**
 * The unit of work on PostgreSQL: one transaction per write, and the write's declared events
 * written before COMMIT by the one recorder (feed lines with their outbox rows, one statement per
 * batch), the one announcer (notices, sent with COMMIT) and the one notification writer (what
 * people are told, derived from the same events). Nested writes share the outer transaction and
 * tell their events when they end. A one-statement write (`writeStatement`) carries the same
 * events, its notifications included, inside its own statement instead.
 */
@Injectable()
export class PgUnitOfWork extends UnitOfWork {
  constructor(
    private readonly db: Database,
    private readonly recorder: PgActivityRecorder,
    private readonly announcer: PgChangeAnnouncer,
    private readonly notifications: PgNotificationWriter,
  ) {
    super();
  }

  /**
   * Writes lock rows in different orders (a move holds its task and its gap's two neighbours in id
   * order, a restore holds its task and then its parts), so PostgreSQL may end one of two writes
   * with a deadlock. The write whose transaction was chosen is run again from the start: it rolled
   * back whole, and its work only reads and writes the database (the port says so), so a second
   * run is the same write on fresher rows. A write inside another one is the outer one's to repeat.
   */
  async write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
    if (this.db.inTransaction) return this.once(work, options);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(work, options);
      } catch (error) {
        if (!RETRIED_CODES.has(pgErrorCode(error).code ?? '')) throw error;
        // Still crossing after every run: the database is too busy for this write now (503, not 500).
        if (attempt >= WRITE_ATTEMPTS) throw new DomainError('server.busy', { why: `the write met a deadlock on each of its ${WRITE_ATTEMPTS} tries` });
      }
    }
  }

  private once<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
    return this.db.transaction(async () => {
      const { result, events } = await work();
      // People are told from the same events, in the same transaction: no write path can forget them.
      await this.tell(eventWrites(events, await this.notifications.peopleFor(events)));
      return result;
    }, options);
  }

  writeStatement<T>(work: () => Written<StatementWrite<T>>): Promise<T> {
    const { result, events } = work();
    if (!(result instanceof PgStatementWrite)) throw new Error('writeStatement takes a statement of a PostgreSQL repository');
    return (result as PgStatementWrite<T>).run(this.db, eventWrites(events));
  }

  private async tell(writes: EventWrites): Promise<void> {
    for (const batch of writes.batches) await this.recorder.recordBatch(batch);
    await this.notifications.write(writes.intents);
    for (const change of writes.notices) await this.announcer.announce(change);
  }
}
