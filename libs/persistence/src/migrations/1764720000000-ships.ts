import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Option ships (issue 13) and the feed cursor.
 *
 * `ship_tasks` keeps which tasks shipped with an option, so the changelog stays true after a
 * task later moves to another option or loses the value.
 *
 * The feed is shown in milliseconds (JSON timestamps), so its cursor compares the time cut to
 * the millisecond: this index serves that order.
 */
export class Ships1764720000000 implements MigrationInterface {
  name = 'Ships1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ship_tasks (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        option_id uuid NOT NULL REFERENCES options (id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        ship_id uuid NOT NULL,
        PRIMARY KEY (project_id, option_id, task_id)
      );
      -- A task removed for good takes its rows along (the foreign key looks them up by task).
      CREATE INDEX ship_tasks_task ON ship_tasks (task_id);
      CREATE INDEX activity_feed_ms ON activity (project_id, (date_trunc('milliseconds', created_at AT TIME ZONE 'UTC')), id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX activity_feed_ms; DROP TABLE ship_tasks;`);
  }
}
