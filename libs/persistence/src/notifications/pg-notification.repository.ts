import { Injectable } from '@nestjs/common';
import { NotificationRepository } from '@board/notifications';
import { Database } from '../database';
import { sql } from '../sql';

@Injectable()
export class PgNotificationRepository extends NotificationRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async markRead(userId: string, which: readonly string[] | 'all', now: Date): Promise<void> {
    const all = which === 'all';
    const ids = which === 'all' ? [] : which;
    await this.db.exec(
      sql`UPDATE notifications SET read_at = ${now}
           WHERE user_id = ${userId} AND read_at IS NULL AND (${all}::boolean OR id = ANY(${ids}::uuid[]))`,
    );
  }

  /** Oldest first, so each batch walks `notifications_age` from its start. */
  async purgeBatch(before: Date, limit: number): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      sql`DELETE FROM notifications WHERE id IN (
            SELECT id FROM notifications WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING id`,
    );
    return rows.length;
  }
}
