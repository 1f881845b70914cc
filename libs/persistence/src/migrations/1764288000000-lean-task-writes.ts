import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cheaper task writes (bench/README.md, finding 4). Every value write rewrote two indexes no query
 * used: the GIN index on `values` (filters read `values -> id`, which it cannot serve) and the
 * partial board index, which `tasks_rank` covers. Without an index on `values` or `updated_at`,
 * a value write can be a HOT update, and free space on each page (fillfactor) lets it stay one.
 */
export class LeanTaskWrites1764288000000 implements MigrationInterface {
  name = 'LeanTaskWrites1764288000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX tasks_values');
    await q.query('DROP INDEX tasks_board');
    await q.query('ALTER TABLE tasks SET (fillfactor = 85)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks RESET (fillfactor)');
    await q.query(`CREATE INDEX tasks_board ON tasks (project_id, position COLLATE "C") WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX tasks_values ON tasks USING gin ("values" jsonb_path_ops)`);
  }
}
