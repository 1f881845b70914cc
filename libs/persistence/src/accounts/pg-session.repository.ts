import { Injectable } from '@nestjs/common';
import { SessionRecord, SessionRepository } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';
import { SESSION_COLUMNS, SessionRow, toSession } from './sessions.table';

@Injectable()
export class PgSessionRepository extends SessionRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async create(s: SessionRecord): Promise<void> {
    await this.db.exec(sql`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (${s.digest}, ${s.userId}, ${s.expiresAt})`);
  }

  async findLive(digest: string, now: Date): Promise<SessionRecord | null> {
    const row = await this.db.one<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM sessions WHERE digest = ${digest} AND expires_at > ${now}`);
    return row ? toSession(row) : null;
  }

  async delete(digest: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM sessions WHERE digest = ${digest}`);
    this.db.credentialsChanged();
  }

  async deleteOthers(userId: string, keepDigest: string | null): Promise<void> {
    await this.db.exec(sql`DELETE FROM sessions WHERE user_id = ${userId} AND digest IS DISTINCT FROM ${keepDigest}`);
    this.db.credentialsChanged();
  }

  async countOthers(userId: string, keepDigest: string, now: Date): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${userId} AND digest <> ${keepDigest} AND expires_at > ${now}`,
    );
    return row?.n ?? 0;
  }
}
