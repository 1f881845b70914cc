import { Injectable } from '@nestjs/common';
import { StatementWrite, UnitOfWork, UnitOfWorkOptions, Written } from '@board/kernel';
import { Database } from '../database';
import { PgChangeAnnouncer } from './pg-change.announcer';
import { PgActivityRecorder } from './pg-activity.recorder';
import { EventWrites, eventWrites } from './event-writes';
import { PgStatementWrite } from './pg-statement-write';
import { PgNotificationWriter } from '../notifications/pg-notification.writer';

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

  write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
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
