import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-step sign-in (extensions.md § 3.1): the shared secret once on (an app needs it whole, so
 * it is kept, never shown again), the secret of a set-up not yet confirmed, and the last time step
 * a code was accepted in (a code works once). Recovery codes are kept as SHA-256 digests.
 */
export class Totp1765001510000 implements MigrationInterface {
  name = 'Totp1765001510000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN totp_secret text, ADD COLUMN totp_pending text, ADD COLUMN totp_step bigint');
    await q.query(`CREATE TABLE recovery_codes (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      digest text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, digest))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS recovery_codes');
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS totp_secret, DROP COLUMN IF EXISTS totp_pending, DROP COLUMN IF EXISTS totp_step');
  }
}
