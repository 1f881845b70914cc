import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on (extensions.md § 3.2): an identity of an OpenID provider, its issuer and subject
 * (the pair the provider promises never to reuse), linked to one account. An account may have
 * several (another provider, or the same after a change of issuer); it goes with its account.
 * `users.password_hash` is nullable already: an account made by single sign-on has none until it
 * sets one.
 */
export class OidcIdentities1765001530000 implements MigrationInterface {
  name = 'OidcIdentities1765001530000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oidc_identities (
      issuer text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      linked_at timestamptz NOT NULL,
      PRIMARY KEY (issuer, subject))`);
    await q.query('CREATE INDEX oidc_identities_by_user ON oidc_identities (user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS oidc_identities');
  }
}
