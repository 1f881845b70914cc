import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stream ends when its credential loses access (decisions.md › Security). Every row whose
 * deletion takes access away — a membership, a session, an agent token, a project — rings
 * `board_access` from the deleting transaction itself (sent at its COMMIT, to every instance),
 * whichever code path deletes it, cascades and future routes included: a trigger cannot be
 * forgotten by a new write the way an announcer call can. Payloads carry ids only, never a
 * session digest or token. Statement-level with a transition table, so a bulk delete rings once
 * per distinct person and project (PostgreSQL also folds equal payloads within a transaction).
 */
export class AccessNotices1764547200000 implements MigrationInterface {
  name = 'AccessNotices1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION board_access_members_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_access', json_build_object('projectId', project_id, 'userId', user_id)::text)
           FROM (SELECT DISTINCT project_id, user_id FROM gone) g;
        RETURN NULL;
      END $$;
      CREATE TRIGGER members_access_gone AFTER DELETE ON members
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_access_members_gone();

      CREATE FUNCTION board_access_sessions_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_access', json_build_object('userId', user_id)::text)
           FROM (SELECT DISTINCT user_id FROM gone) g;
        RETURN NULL;
      END $$;
      CREATE TRIGGER sessions_access_gone AFTER DELETE ON sessions
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_access_sessions_gone();

      CREATE FUNCTION board_access_tokens_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_access', json_build_object('projectId', project_id, 'userId', agent_id)::text)
           FROM (SELECT DISTINCT project_id, agent_id FROM gone) g;
        RETURN NULL;
      END $$;
      CREATE TRIGGER agent_tokens_access_gone AFTER DELETE ON agent_tokens
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_access_tokens_gone();

      CREATE FUNCTION board_access_projects_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('board_access', json_build_object('projectId', id)::text) FROM gone;
        RETURN NULL;
      END $$;
      CREATE TRIGGER projects_access_gone AFTER DELETE ON projects
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION board_access_projects_gone();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER projects_access_gone ON projects;
      DROP TRIGGER agent_tokens_access_gone ON agent_tokens;
      DROP TRIGGER sessions_access_gone ON sessions;
      DROP TRIGGER members_access_gone ON members;
      DROP FUNCTION board_access_projects_gone();
      DROP FUNCTION board_access_tokens_gone();
      DROP FUNCTION board_access_sessions_gone();
      DROP FUNCTION board_access_members_gone();
    `);
  }
}
