import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The instances on the database and who holds what (docs/operating.md › Running several instances).
 *
 * `service_instances`: one row per running instance, kept alive by its beats (`alive_until`, the
 * database's time). A row whose time ran out is removed by the next beat of any instance.
 *
 * `leased_by` on the three queues worked outside a transaction (webhook deliveries, bucket keys,
 * notification mails) names the instance holding a claim: a claim whose holder has no live row is
 * free to take at once, whatever its own lease says. `webhook_deliveries.lease` proves a claim, so
 * the late answer of a holder that was taken for dead changes nothing.
 */
export class InstanceLiveness1765001600000 implements MigrationInterface {
  name = 'InstanceLiveness1765001600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE service_instances (
        id uuid PRIMARY KEY,
        name text NOT NULL DEFAULT '',
        started_at timestamptz NOT NULL DEFAULT now(),
        alive_until timestamptz NOT NULL
      );
      ALTER TABLE webhook_deliveries ADD COLUMN lease uuid, ADD COLUMN leased_by uuid;
      ALTER TABLE notification_mails ADD COLUMN leased_by uuid;
      ALTER TABLE object_deletions ADD COLUMN leased_by uuid;
      CREATE INDEX object_deletions_leased ON object_deletions (leased_by) WHERE leased_by IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX object_deletions_leased;
      ALTER TABLE object_deletions DROP COLUMN leased_by;
      ALTER TABLE notification_mails DROP COLUMN leased_by;
      ALTER TABLE webhook_deliveries DROP COLUMN lease, DROP COLUMN leased_by;
      DROP TABLE service_instances;
    `);
  }
}
