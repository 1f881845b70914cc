import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications for people (extensions.md § 2) and the mail of those that are mailed.
 *
 * `notifications`: one row per person told. The inbox reads a person's newest first
 * (`notifications_inbox`) and counts the unread ones (`notifications_unread`, partial); the
 * retention sweep removes by age (`notifications_age`). A task's purge removes its notifications.
 *
 * `notification_mails`: the outbox of mail, written in the write's transaction and sent after
 * COMMIT by any instance, a claim holding a row for a lease (`lease_until`, `lease`).
 */
export class Notifications1765001100000 implements MigrationInterface {
  name = 'Notifications1765001100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users ADD COLUMN mail_notifications boolean NOT NULL DEFAULT true;

      CREATE TABLE notifications (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
        kind text NOT NULL CHECK (kind IN ('question', 'mention', 'assigned', 'run_ended')),
        text text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        read_at timestamptz
      );
      CREATE INDEX notifications_inbox ON notifications (user_id, created_at DESC, id DESC);
      CREATE INDEX notifications_unread ON notifications (user_id, project_id, task_id) WHERE read_at IS NULL;
      CREATE INDEX notifications_task ON notifications (task_id);
      CREATE INDEX notifications_age ON notifications (created_at);

      CREATE TABLE notification_mails (
        id uuid PRIMARY KEY REFERENCES notifications (id) ON DELETE CASCADE,
        due_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        lease uuid,
        lease_until timestamptz,
        tries integer NOT NULL DEFAULT 0
      );
      CREATE INDEX notification_mails_due ON notification_mails (due_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE notification_mails, notifications;
      ALTER TABLE users DROP COLUMN mail_notifications;
    `);
  }
}
