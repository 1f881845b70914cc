import { Injectable } from '@nestjs/common';
import { SECURITY_EVENTS_SHOWN, SecurityEvent, SecurityKind, SecurityLog } from '@board/accounts';
import { Database } from '../database';
import { sql } from '../sql';

/** Events kept per person: the shown ones and a margin, so trimming runs rarely past the read. */
const KEPT = SECURITY_EVENTS_SHOWN * 2;

@Injectable()
export class PgSecurityLog extends SecurityLog {
  constructor(private readonly db: Database) {
    super();
  }

  /** Records the event and drops the person's events past the newest KEPT, in one statement. */
  async append(userId: string, e: SecurityEvent): Promise<void> {
    await this.db.query(sql`WITH ins AS (
        INSERT INTO security_events (user_id, at, kind, ip, user_agent) VALUES (${userId}, ${e.at}, ${e.kind}, ${e.ip}, ${e.userAgent}) RETURNING id)
      DELETE FROM security_events WHERE user_id = ${userId} AND id IN (
        SELECT id FROM security_events WHERE user_id = ${userId} ORDER BY at DESC, id DESC OFFSET ${KEPT})`);
  }

  async recent(userId: string, limit: number): Promise<SecurityEvent[]> {
    const rows = await this.db.query<{ at: Date; kind: SecurityKind; ip: string; user_agent: string }>(
      sql`SELECT at, kind, ip, user_agent FROM security_events WHERE user_id = ${userId} ORDER BY at DESC, id DESC LIMIT ${limit}`,
    );
    return rows.map((r) => ({ at: r.at, kind: r.kind, ip: r.ip, userAgent: r.user_agent }));
  }
}
