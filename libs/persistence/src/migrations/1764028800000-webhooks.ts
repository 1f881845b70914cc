import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks and their deliveries: an outbox written in the same transaction as the feed line,
 * drained by workers on every instance (FOR UPDATE SKIP LOCKED plus a short lease).
 */
export class Webhooks1764028800000 implements MigrationInterface {
  name = 'Webhooks1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        url text NOT NULL,
        kinds jsonb NOT NULL DEFAULT '[]',
        enabled boolean NOT NULL DEFAULT true,
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhooks_project ON webhooks (project_id) WHERE enabled;

      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        kind text NOT NULL,
        task_id uuid,
        task_key text,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dropped')),
        tries integer NOT NULL DEFAULT 0,
        last_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        next_try_at timestamptz NOT NULL,
        delivered_at timestamptz,
        locked_until timestamptz
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_try_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (project_id, webhook_id, created_at DESC, id DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_deliveries, webhooks');
  }
}
