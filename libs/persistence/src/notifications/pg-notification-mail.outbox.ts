import { Injectable } from '@nestjs/common';
import { NotificationMail, NotificationMailOutbox } from '@board/notifications';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { holderGone } from '../system/instances.sql';

/** The outbox of notification mail (see `NotificationMailOutbox`): leases over `notification_mails`. */
@Injectable()
export class PgNotificationMailOutbox extends NotificationMailOutbox {
  constructor(private readonly db: Database) {
    super();
  }

  /** Due mails that no live claim holds, taken with SKIP LOCKED so instances claiming at once split them. */
  claim(now: Date, leaseMs: number, limit: number, holder: string): Promise<NotificationMail[]> {
    return this.db.query<NotificationMail>(
      sql`WITH due AS (
            SELECT q.id FROM notification_mails q
             WHERE q.due_at <= ${now} AND (q.lease_until IS NULL OR q.lease_until <= ${now} OR ${holderGone(raw('q.leased_by'))})
             ORDER BY q.due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
          taken AS (
            UPDATE notification_mails q SET lease = gen_random_uuid(), lease_until = ${now}::timestamptz + ${leaseMs} * interval '1 millisecond',
                   leased_by = ${holder}, tries = q.tries + 1
              FROM due WHERE q.id = due.id
            RETURNING q.id, q.lease, q.tries)
          SELECT tk.id, tk.lease, tk.tries, u.email AS "to", n.kind, n.text, coalesce(a.name, '') AS "actorName",
                 p.key || '-' || t.number AS "taskKey", n.task_id AS "taskId", n.project_id AS "projectId"
            FROM taken tk
            JOIN notifications n ON n.id = tk.id
            JOIN users u ON u.id = n.user_id
            JOIN projects p ON p.id = n.project_id
            JOIN tasks t ON t.project_id = n.project_id AND t.id = n.task_id
            LEFT JOIN users a ON a.id = n.actor_id`,
    );
  }

  async sent(mail: NotificationMail): Promise<void> {
    await this.db.exec(sql`DELETE FROM notification_mails WHERE id = ${mail.id} AND lease = ${mail.lease}`);
  }

  async failed(mail: NotificationMail, retryAt: Date | null): Promise<void> {
    if (retryAt === null) return this.sent(mail);
    await this.db.exec(
      sql`UPDATE notification_mails SET due_at = ${retryAt}, lease = NULL, lease_until = NULL, leased_by = NULL WHERE id = ${mail.id} AND lease = ${mail.lease}`,
    );
  }
}
