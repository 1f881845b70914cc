import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rank lookups under the project lock count deleted tasks too (they keep their rank for a
 * restore), so the partial board index cannot serve them: without this index every create and
 * move scanned the whole project while holding the lock (bench/README.md, finding 2).
 */
export class RankIndex1764201600000 implements MigrationInterface {
  name = 'RankIndex1764201600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX tasks_rank ON tasks (project_id, position COLLATE "C")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX tasks_rank');
  }
}
