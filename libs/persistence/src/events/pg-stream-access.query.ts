import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';
import { StreamAccessQuery, StreamCredential } from './stream-access.query';

/** The re-check in one query over the streams' credentials (`unnest`). */
@Injectable()
export class PgStreamAccessQuery extends StreamAccessQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** The positions in `streams` that still have access at `now`, with the session's expiry (null for a token). */
  async stillAllowed(streams: readonly StreamCredential[], now: Date): Promise<Map<number, Date | null>> {
    const allowed = new Map<number, Date | null>();
    if (streams.length === 0) return allowed;
    const rows = await this.db.query<{ i: number; expiresAt: Date | null }>(
      sql`SELECT c.i, s.expires_at AS "expiresAt"
         FROM unnest(${streams.map((s) => s.projectId)}::uuid[], ${streams.map((s) => s.via)}::text[], ${streams.map((s) => s.digest)}::text[])
              WITH ORDINALITY AS c(project_id, via, digest, i)
         LEFT JOIN sessions s ON c.via = 'session' AND s.digest = c.digest AND s.expires_at > ${now}
         LEFT JOIN agent_tokens t ON c.via = 'token' AND t.digest = c.digest AND t.project_id = c.project_id
        WHERE CASE WHEN c.project_id IS NULL THEN s.user_id IS NOT NULL
                   ELSE EXISTS (SELECT 1 FROM members m WHERE m.project_id = c.project_id AND m.user_id = coalesce(s.user_id, t.agent_id)) END`,
    );
    for (const row of rows) allowed.set(Number(row.i) - 1, row.expiresAt);
    return allowed;
  }
}
