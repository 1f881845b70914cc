import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each instance keeps the answers of recent credential checks for a few seconds
 * (apps/api/src/auth/credential-cache.ts): who the caller is (their name, email, colour and emoji
 * go into feed lines), their role in the route's project, and whether the route's task is live.
 * A delete that takes access away rings `board_access` already (migration 1764547200000); these
 * triggers ring `board_credentials` for every other change that makes such an answer wrong, sent
 * at COMMIT to every instance, whichever code path or plain SQL makes it:
 *
 * - a membership's role changing (an admin made a member must lose the admin routes at once);
 * - a person's or agent's name, email, colour, emoji or kind changing, and a user's delete;
 * - a session's expiry moving (no route moves it today; a cached answer must not outlive it);
 * - a live task going to the bin, moving project, or being deleted for good (the check of a
 *   task route answers only live tasks).
 *
 * Updates fire row triggers with a WHEN on what changed, so the statements that rewrite these columns without
 * changing them (the task save writes deleted_at back on every save, the user save its name) run
 * no function at all; a value write or a move names none of these columns and fires nothing.
 * Deletes fire once per statement (a transition table, as the access triggers do). PostgreSQL
 * folds equal payloads of one transaction, so a bulk change rings once per project or person. Payloads carry ids only. What makes an answer newly right (a member added, a task
 * restored) needs no notice: a refusal is never kept.
 */
export class CredentialNotices1765001800000 implements MigrationInterface {
  name = 'CredentialNotices1765001800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION board_credentials_member_role() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('projectId', NEW.project_id, 'userId', NEW.user_id)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER members_credentials_role AFTER UPDATE OF role ON members
        FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role) EXECUTE FUNCTION board_credentials_member_role();

      CREATE FUNCTION board_credentials_user() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('userId', NEW.id)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER users_credentials_shown AFTER UPDATE OF name, email, color, emoji, kind ON users
        FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.color IS DISTINCT FROM NEW.color
                           OR OLD.emoji IS DISTINCT FROM NEW.emoji OR OLD.kind IS DISTINCT FROM NEW.kind)
        EXECUTE FUNCTION board_credentials_user();
      CREATE FUNCTION board_credentials_users_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('userId', id)::text) FROM gone;
        RETURN NULL;
      END $$;
      CREATE TRIGGER users_credentials_gone AFTER DELETE ON users
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_credentials_users_gone();

      CREATE FUNCTION board_credentials_session() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('userId', NEW.user_id)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER sessions_credentials_expiry AFTER UPDATE OF expires_at, user_id ON sessions
        FOR EACH ROW WHEN (OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
        EXECUTE FUNCTION board_credentials_session();

      CREATE FUNCTION board_credentials_task() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('projectId', OLD.project_id)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER tasks_credentials_binned AFTER UPDATE OF deleted_at, project_id ON tasks
        FOR EACH ROW WHEN ((OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) OR OLD.project_id IS DISTINCT FROM NEW.project_id)
        EXECUTE FUNCTION board_credentials_task();
      -- Statement-level: a project's delete takes all its tasks along in one cascade.
      CREATE FUNCTION board_credentials_tasks_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_credentials', json_build_object('projectId', project_id)::text)
           FROM (SELECT DISTINCT project_id FROM gone WHERE deleted_at IS NULL) g;
        RETURN NULL;
      END $$;
      CREATE TRIGGER tasks_credentials_gone AFTER DELETE ON tasks
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_credentials_tasks_gone();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER tasks_credentials_gone ON tasks;
      DROP TRIGGER tasks_credentials_binned ON tasks;
      DROP TRIGGER sessions_credentials_expiry ON sessions;
      DROP TRIGGER users_credentials_gone ON users;
      DROP TRIGGER users_credentials_shown ON users;
      DROP TRIGGER members_credentials_role ON members;
      DROP FUNCTION board_credentials_tasks_gone();
      DROP FUNCTION board_credentials_task();
      DROP FUNCTION board_credentials_session();
      DROP FUNCTION board_credentials_users_gone();
      DROP FUNCTION board_credentials_user();
      DROP FUNCTION board_credentials_member_role();
    `);
  }
}
