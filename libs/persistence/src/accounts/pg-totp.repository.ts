import { Injectable } from '@nestjs/common';
import { TotpRepository, TotpState } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';

@Injectable()
export class PgTotpRepository extends TotpRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async state(userId: string): Promise<TotpState> {
    const row = await this.db.one<{ totp_secret: string | null; totp_pending: string | null; totp_step: string | null }>(
      sql`SELECT totp_secret, totp_pending, totp_step FROM users WHERE id = ${userId}`,
    );
    // bigint arrives as text; no row (no such person) reads as off.
    const step = row?.totp_step ?? null;
    return { secret: row?.totp_secret ?? null, pending: row?.totp_pending ?? null, usedStep: step === null ? null : Number(step) };
  }

  async setPending(userId: string, secret: string): Promise<void> {
    await this.db.exec(sql`UPDATE users SET totp_pending = ${secret} WHERE id = ${userId}`);
  }

  async turnOn(userId: string, secret: string, usedStep: number, recoveryDigests: readonly string[]): Promise<void> {
    await this.db.exec(sql`WITH gone AS (DELETE FROM recovery_codes WHERE user_id = ${userId}),
        codes AS (INSERT INTO recovery_codes (user_id, digest) SELECT ${userId}, d FROM unnest(${[...recoveryDigests]}::text[]) d)
      UPDATE users SET totp_secret = ${secret}, totp_pending = NULL, totp_step = ${usedStep} WHERE id = ${userId}`);
  }

  async turnOff(userId: string): Promise<void> {
    await this.db.exec(sql`WITH gone AS (DELETE FROM recovery_codes WHERE user_id = ${userId})
      UPDATE users SET totp_secret = NULL, totp_pending = NULL, totp_step = NULL WHERE id = ${userId}`);
  }

  async spendStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db.query(sql`UPDATE users SET totp_step = ${step}
      WHERE id = ${userId} AND (totp_step IS NULL OR totp_step < ${step}) RETURNING id`);
    return rows.length === 1;
  }

  async spendRecoveryCode(userId: string, digest: string): Promise<boolean> {
    const rows = await this.db.query(sql`UPDATE recovery_codes SET used_at = now()
      WHERE user_id = ${userId} AND digest = ${digest} AND used_at IS NULL RETURNING digest`);
    return rows.length === 1;
  }
}
