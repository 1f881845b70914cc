import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents at work (extensions § 1): a run's question, links and usage totals live on the run; each
 * increase of a run's totals is booked on its UTC day (`usage_days`, one row per run and day, so
 * the usage read sums set-based and a retried report books nothing twice); `usage_project_days`
 * holds a project's cost per day, the one row every cost-carrying report of a project updates —
 * its row lock lines concurrent reports up, so exactly one of them sees the budget crossed.
 */
export class AgentsAtWork1765000800000 implements MigrationInterface {
  name = 'AgentsAtWork1765000800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE runs
        ADD COLUMN question jsonb,
        ADD COLUMN links jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN input_tokens bigint NOT NULL DEFAULT 0,
        ADD COLUMN output_tokens bigint NOT NULL DEFAULT 0,
        ADD COLUMN cost_micros bigint NOT NULL DEFAULT 0,
        ADD COLUMN model text;

      ALTER TABLE projects ADD COLUMN daily_budget_micros bigint CHECK (daily_budget_micros > 0);

      CREATE TABLE usage_days (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        day date NOT NULL,
        agent_id uuid REFERENCES users (id) ON DELETE SET NULL,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        cost_micros bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, run_id, day)
      );
      CREATE INDEX usage_days_project_day ON usage_days (project_id, day);

      CREATE TABLE usage_project_days (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        day date NOT NULL,
        cost_micros bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, day)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE usage_project_days, usage_days;
      ALTER TABLE projects DROP COLUMN daily_budget_micros;
      ALTER TABLE runs DROP COLUMN question, DROP COLUMN links, DROP COLUMN input_tokens, DROP COLUMN output_tokens, DROP COLUMN cost_micros, DROP COLUMN model;
    `);
  }
}
