import { MigrationInterface, QueryRunner } from 'typeorm';

/** Agent runs. At most one open run per task is the database's to keep: a partial unique index. */
export class Runs1763942400000 implements MigrationInterface {
  name = 'Runs1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE runs (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        agent_id uuid REFERENCES users (id) ON DELETE SET NULL,
        status text NOT NULL,
        goal text NOT NULL DEFAULT '',
        step text NOT NULL DEFAULT '',
        steps jsonb NOT NULL DEFAULT '[]',
        step_index integer,
        control text,
        log jsonb NOT NULL DEFAULT '[]',
        started_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        report_due_at timestamptz,
        beat_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE UNIQUE INDEX runs_one_open ON runs (project_id, task_id) WHERE ended_at IS NULL;
      CREATE INDEX runs_task ON runs (project_id, task_id, started_at DESC, id DESC);
      CREATE INDEX runs_open ON runs (project_id) WHERE ended_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE runs');
  }
}
