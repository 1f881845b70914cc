import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair use (decisions.md): invite mails counted where every instance sees them, and stored files
 * that no upload URL can write.
 *
 * `invite_mails`: one row per invite mail sent, by project, address and sender. No foreign key
 * to the project: a project deleted must not hand its sender back the mails it sent today.
 *
 * `attachments.upload_key`: where the signed PUT writes (`uploads/…`); `ready` copies the object
 * to `object_key` (a key of its own) and queues the upload key for deletion at
 * `upload_closes_at`, once no URL can write it any more — so a PUT after ready, after a delete or
 * after the project is gone leaves nothing behind past that sweep. Rows made before keep a null
 * upload key (their object stays where it was uploaded).
 */
export class FairMailFiles1765000300000 implements MigrationInterface {
  name = 'FairMailFiles1765000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invite_mails (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL,
        email text NOT NULL,
        sender_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        sent_at timestamptz NOT NULL
      );
      CREATE INDEX invite_mails_sender ON invite_mails (sender_id, sent_at DESC);
      CREATE INDEX invite_mails_address ON invite_mails (project_id, email, sent_at DESC);

      ALTER TABLE attachments ADD COLUMN upload_key text UNIQUE, ADD COLUMN upload_closes_at timestamptz;
      CREATE INDEX attachments_pending_uploader ON attachments (uploader_id, created_at) WHERE state = 'pending';

      -- Whatever removes a row queues its stored key at once, and its upload key for when its URL has closed.
      CREATE OR REPLACE FUNCTION board_queue_object_deletions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO object_deletions (key, due_at)
        SELECT key, max(due_at) FROM (
          SELECT object_key AS key, '-infinity'::timestamptz AS due_at FROM gone
          UNION ALL
          SELECT upload_key, upload_closes_at FROM gone WHERE upload_key IS NOT NULL
        ) k GROUP BY key
        ON CONFLICT (key) DO UPDATE SET due_at = greatest(object_deletions.due_at, EXCLUDED.due_at);
        RETURN NULL;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION board_queue_object_deletions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO object_deletions (key) SELECT object_key FROM gone ON CONFLICT (key) DO NOTHING;
        RETURN NULL;
      END $$;
      DROP INDEX attachments_pending_uploader;
      ALTER TABLE attachments DROP COLUMN upload_key, DROP COLUMN upload_closes_at;
      DROP TABLE invite_mails;
    `);
  }
}
