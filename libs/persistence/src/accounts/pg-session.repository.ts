import { Injectable } from '@nestjs/common';
import { SessionRecord, SessionRepository } from '@board/accounts';
import { Database } from '../database';

@Injectable()
export class PgSessionRepository extends SessionRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async create(s: SessionRecord): Promise<void> {
    await this.db.exec('INSERT INTO sessions (digest, user_id, expires_at) VALUES ($1, $2, $3)', [s.digest, s.userId, s.expiresAt]);
  }

  async findLive(digest: string, now: Date): Promise<SessionRecord | null> {
    const row = await this.db.one<{ digest: string; user_id: string; expires_at: Date }>(
      'SELECT digest, user_id, expires_at FROM sessions WHERE digest = $1 AND expires_at > $2',
      [digest, now],
    );
    return row ? { digest: row.digest, userId: row.user_id, expiresAt: row.expires_at } : null;
  }

  async delete(digest: string): Promise<void> {
    await this.db.exec('DELETE FROM sessions WHERE digest = $1', [digest]);
  }

  async deleteOthers(userId: string, keepDigest: string | null): Promise<void> {
    await this.db.exec('DELETE FROM sessions WHERE user_id = $1 AND digest IS DISTINCT FROM $2', [userId, keepDigest]);
  }

  async countOthers(userId: string, keepDigest: string, now: Date): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND digest <> $2 AND expires_at > $3',
      [userId, keepDigest, now],
    );
    return row?.n ?? 0;
  }
}
