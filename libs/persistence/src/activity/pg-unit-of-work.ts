import { Injectable } from '@nestjs/common';
import { ActivityLine, UnitOfWork, UnitOfWorkOptions, WriteEvent, Written } from '@board/kernel';
import { Database } from '../database';
import { PgChangeAnnouncer } from './pg-change.announcer';
import { PgActivityRecorder } from './pg-activity.recorder';
import { PgNotificationWriter } from '../notifications/pg-notification.writer';

/**
 * The unit of work on PostgreSQL: one transaction per write, and the write's declared events
 * written before COMMIT by the one recorder (feed lines with their outbox rows, as few
 * statements as the events allow), the one announcer (notices, sent with COMMIT) and the one
 * notification writer (what people are told, derived from the same events). Nested
 * writes share the outer transaction and tell their events when they end.
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
      await this.tell(events);
      // People are told from the same events, in the same transaction: no write path can forget them.
      await this.notifications.write(events);
      return result;
    }, options);
  }

  /** Consecutive lines of one project go as one statement; order is kept. */
  private async tell(events: readonly WriteEvent[]): Promise<void> {
    let batch: ActivityLine[] = [];
    const flush = async () => {
      if (batch.length > 0) await this.recorder.recordMany(batch);
      batch = [];
    };
    for (const event of events) {
      if (event.type === 'line') {
        if (batch.length > 0 && batch[0].projectId !== event.line.projectId) await flush();
        batch.push(event.line);
      } else if (event.type === 'lines-ringing-once') {
        await flush();
        await this.recorder.recordRingingOnce(event.lines, event.kinds);
      } else if (event.type === 'notice') {
        await this.announcer.announce(event.change);
      }
    }
    await flush();
  }
}
