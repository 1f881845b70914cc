import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys in byte order, so the search for a free derived key (`PgProjectRepository.freeKey`) reads
 * only the keys that start with its base (`key COLLATE "C"` between the base and the base + '['),
 * whatever the database's collation, instead of every project on the server.
 */
export class ProjectKeyPrefix1765000400000 implements MigrationInterface {
  name = 'ProjectKeyPrefix1765000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX projects_key_bytes ON projects ((key COLLATE "C"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX projects_key_bytes`);
  }
}
