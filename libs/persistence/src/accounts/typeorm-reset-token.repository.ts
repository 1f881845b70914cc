import { Injectable } from '@nestjs/common';
import { ResetTokenRepository } from '@board/accounts';
import { Database } from '../database';

@Injectable()
export class TypeormResetTokenRepository extends ResetTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async replace(userId: string, digest: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.exec('DELETE FROM reset_tokens WHERE user_id = $1', [userId]);
      await this.db.exec('INSERT INTO reset_tokens (digest, user_id, expires_at) VALUES ($1, $2, $3)', [digest, userId, expiresAt]);
    });
  }

  async consume(digest: string, now: Date): Promise<string | null> {
    // One statement: two requests racing with the same link cannot both use it.
    const row = await this.db.one<{ user_id: string; expires_at: Date }>(
      'DELETE FROM reset_tokens WHERE digest = $1 RETURNING user_id, expires_at',
      [digest],
    );
    return row && row.expires_at > now ? row.user_id : null;
  }
}
