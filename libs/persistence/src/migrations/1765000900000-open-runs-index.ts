import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One index for a project's open runs: `runs_one_open` (project_id, task_id) WHERE ended_at IS NULL
 * serves every read of them by project as well. The narrower `runs_open` (project_id) beside it
 * let the planner, on fresh statistics, check a task's open run by walking all of the project's
 * open runs: the work queue's "no open run" test then grew with every claim (3 claims a second
 * at 2,000 tasks; bench/README.md › runs/next).
 */
export class OpenRunsIndex1765000900000 implements MigrationInterface {
  name = 'OpenRunsIndex1765000900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS runs_open');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS runs_open ON runs (project_id) WHERE ended_at IS NULL');
  }
}
