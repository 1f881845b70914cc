import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attachments (issue 12): a row per file on a task, pending until its uploader confirms it, and
 * a queue of bucket keys to delete. Whatever removes an attachment row — a delete, the sweep of
 * unconfirmed uploads, a task removed for good, a project deleted — queues its key in the same
 * statement (a trigger, so no cascade can lose a key); sweeps empty the queue into the bucket and
 * a failed bucket delete stays queued for the next try.
 */
export class Attachments1764633600000 implements MigrationInterface {
  name = 'Attachments1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE attachments (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        uploader_id uuid REFERENCES users (id) ON DELETE SET NULL,
        name text NOT NULL,
        mime text NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        width integer,
        height integer,
        object_key text NOT NULL UNIQUE,
        state text NOT NULL CHECK (state IN ('pending', 'ready')),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX attachments_task ON attachments (project_id, task_id, created_at DESC, id DESC) WHERE state = 'ready';
      CREATE INDEX attachments_pending ON attachments (created_at) WHERE state = 'pending';

      CREATE TABLE object_deletions (
        key text PRIMARY KEY,
        -- Due at once; a sweep that claims the key leases it forward, so a failed delete is tried again later.
        due_at timestamptz NOT NULL DEFAULT '-infinity',
        tries integer NOT NULL DEFAULT 0
      );
      CREATE INDEX object_deletions_due ON object_deletions (due_at);

      CREATE FUNCTION board_queue_object_deletions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO object_deletions (key) SELECT object_key FROM gone ON CONFLICT (key) DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER attachments_queue_deletions AFTER DELETE ON attachments
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_queue_object_deletions();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE attachments, object_deletions; DROP FUNCTION board_queue_object_deletions()`);
  }
}
