import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, projects, members, agents, tokens, throttle counters, the feed, and the property,
 * option and view tables a new project is seeded with. Every table that belongs to a project
 * carries project_id, so the schema can later be distributed by project.
 */
export class Foundation1763769600000 implements MigrationInterface {
  name = 'Foundation1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('human', 'agent')),
        email text,
        name text NOT NULL,
        color text NOT NULL,
        emoji text,
        password_hash text,
        project_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;

      CREATE TABLE sessions (
        digest text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user ON sessions (user_id);
      CREATE INDEX sessions_expires ON sessions (expires_at);

      CREATE TABLE reset_tokens (
        digest text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX reset_tokens_user ON reset_tokens (user_id);

      CREATE TABLE throttle_failures (
        id bigserial PRIMARY KEY,
        family text NOT NULL,
        subject text NOT NULL,
        at timestamptz NOT NULL
      );
      CREATE INDEX throttle_failures_lookup ON throttle_failures (family, subject, at DESC);
      CREATE INDEX throttle_failures_at ON throttle_failures (at);

      CREATE TABLE projects (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        key text NOT NULL,
        owner_id uuid NOT NULL REFERENCES users (id),
        done_when jsonb,
        releases boolean NOT NULL DEFAULT false,
        sprints boolean NOT NULL DEFAULT false,
        task_counter bigint NOT NULL DEFAULT 0,
        card_view jsonb NOT NULL DEFAULT '{"rows":{}}',
        rules_text text NOT NULL DEFAULT '',
        rules_updated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX projects_key ON projects (key);
      ALTER TABLE users ADD CONSTRAINT users_project_fk FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE;

      CREATE TABLE members (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        position text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, user_id)
      );
      CREATE INDEX members_user ON members (user_id, position COLLATE "C");

      CREATE TABLE invites (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, email)
      );
      CREATE INDEX invites_email ON invites (email);

      CREATE TABLE agent_tokens (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        agent_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        digest text NOT NULL,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      );
      CREATE UNIQUE INDEX agent_tokens_digest ON agent_tokens (digest);
      CREATE INDEX agent_tokens_project ON agent_tokens (project_id, created_at);

      CREATE TABLE properties (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL,
        position text COLLATE "C" NOT NULL,
        config jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX properties_project ON properties (project_id, position COLLATE "C");

      CREATE TABLE options (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        property_id uuid NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL,
        position text COLLATE "C" NOT NULL,
        starts_on date,
        target_on date,
        note text,
        shipped_at date,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- Two simultaneous creates of one name: the database keeps one.
      CREATE UNIQUE INDEX options_name ON options (project_id, property_id, lower(btrim(name)));
      CREATE INDEX options_property ON options (project_id, property_id, position COLLATE "C");

      CREATE TABLE views (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('board', 'list', 'roadmap')),
        group_by_id uuid,
        position text COLLATE "C" NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        filters jsonb NOT NULL DEFAULT '{"rules":[]}',
        sort jsonb,
        card_view jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX views_project ON views (project_id, position COLLATE "C");

      CREATE TABLE activity (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        task_id uuid,
        actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
        kind text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX activity_feed ON activity (project_id, created_at, id);
      CREATE INDEX activity_task ON activity (project_id, task_id, created_at DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE activity, views, options, properties, agent_tokens, invites, members;
      ALTER TABLE users DROP CONSTRAINT users_project_fk;
      DROP TABLE projects, throttle_failures, reset_tokens, sessions, users;
    `);
  }
}
