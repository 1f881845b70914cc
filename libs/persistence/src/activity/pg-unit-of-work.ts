import { Injectable } from '@nestjs/common';
import { StatementWrite, UnitOfWork, UnitOfWorkOptions, Written } from '@board/kernel';
import { Database } from '../database';
import { PgChangeAnnouncer } from './pg-change.announcer';
import { PgActivityRecorder } from './pg-activity.recorder';
import { EventWrites, eventWrites } from './event-writes';
import { PgStatementWrite } from './pg-statement-write';

/**
 * The unit of work on PostgreSQL: one transaction per write, and the write's declared events
 * written before COMMIT by the one recorder (feed lines with their outbox rows, one statement per
 * batch) and the one announcer (notices, sent with COMMIT). Nested writes share the outer
 * transaction and tell their events when they end. A one-statement write (`writeStatement`)
 * carries the same events inside its own statement instead.
 */
@Injectable()
export class PgUnitOfWork extends UnitOfWork {
  constructor(
    private readonly db: Database,
    private readonly recorder: PgActivityRecorder,
    private readonly announcer: PgChangeAnnouncer,
  ) {
    super();
  }

  write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
    return this.db.transaction(async () => {
      const { result, events } = await work();
      await this.tell(eventWrites(events));
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
    for (const change of writes.notices) await this.announcer.announce(change);
  }
}
