import { Injectable } from '@nestjs/common';
import { ResetGrant, ResetTokenRepository } from '@board/accounts';
import { Database } from '../database';

@Injectable()
export class PgResetTokenRepository extends ResetTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async replace(userId: string, digest: string, expiresAt: Date, madeBy: string | null): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.exec('DELETE FROM reset_tokens WHERE user_id = $1', [userId]);
      await this.db.exec('INSERT INTO reset_tokens (digest, user_id, expires_at, made_by) VALUES ($1, $2, $3, $4)', [
        digest, userId, expiresAt, madeBy,
      ]);
    });
  }

  async consume(digest: string, now: Date): Promise<ResetGrant | null> {
    // One statement: two requests racing with the same link cannot both use it.
    const row = await this.db.one<{ user_id: string; expires_at: Date; made_by: string | null }>(
      'DELETE FROM reset_tokens WHERE digest = $1 RETURNING user_id, expires_at, made_by',
      [digest],
    );
    return row && row.expires_at > now ? { userId: row.user_id, madeBy: row.made_by } : null;
  }
}
