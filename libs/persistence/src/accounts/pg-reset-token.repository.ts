import { Injectable } from '@nestjs/common';
import { ResetGrant, ResetTokenRepository } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';
import { RESET_TOKEN_COLUMNS, ResetTokenRow, toResetGrant } from './reset-tokens.table';

@Injectable()
export class PgResetTokenRepository extends ResetTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async replace(userId: string, digest: string, expiresAt: Date, madeBy: string | null): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.exec(sql`DELETE FROM reset_tokens WHERE user_id = ${userId}`);
      await this.db.exec(sql`INSERT INTO reset_tokens (digest, ${RESET_TOKEN_COLUMNS}) VALUES (${digest}, ${userId}, ${expiresAt}, ${madeBy})`);
    });
  }

  async consume(digest: string, now: Date): Promise<ResetGrant | null> {
    // One statement: two requests racing with the same link cannot both use it.
    const row = await this.db.one<ResetTokenRow>(sql`DELETE FROM reset_tokens WHERE digest = ${digest} RETURNING ${RESET_TOKEN_COLUMNS}`);
    return row ? toResetGrant(row, now) : null;
  }
}
