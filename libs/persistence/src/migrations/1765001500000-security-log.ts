import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A person's security log (extensions.md § 3.3): sign-ins, failures, sign-outs, password and
 * session changes, with the address and user agent. Read newest first by person, so the one
 * index is (user_id, at DESC, id DESC); the writer trims each person to their newest events.
 */
export class SecurityLog1765001500000 implements MigrationInterface {
  name = 'SecurityLog1765001500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE security_events (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      kind text NOT NULL,
      ip text NOT NULL,
      user_agent text NOT NULL)`);
    await q.query('CREATE INDEX security_events_by_user ON security_events (user_id, at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS security_events');
  }
}
