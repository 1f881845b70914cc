import { Injectable } from '@nestjs/common';
import { LinkedIdentityRepository } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';

@Injectable()
export class PgLinkedIdentityRepository extends LinkedIdentityRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async userOf(issuer: string, subject: string): Promise<string | null> {
    const row = await this.db.one<{ user_id: string }>(sql`SELECT user_id FROM oidc_identities WHERE issuer = ${issuer} AND subject = ${subject}`);
    return row?.user_id ?? null;
  }

  async link(issuer: string, subject: string, userId: string, at: Date): Promise<void> {
    // Two sign-ins of one new identity at once: the first link stands.
    await this.db.exec(sql`INSERT INTO oidc_identities (issuer, subject, user_id, linked_at)
      VALUES (${issuer}, ${subject}, ${userId}, ${at}) ON CONFLICT (issuer, subject) DO NOTHING`);
  }
}
