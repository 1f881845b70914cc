import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';

/** The credential an open stream was opened with: a session or an agent token, by digest (never the secret). */
export interface StreamCredential {
  /** null: a person's own stream (notifications), open while the session lasts. */
  projectId: string | null;
  via: 'session' | 'token';
  digest: string;
}

/**
 * Re-checks the credentials of open streams, all in one query: a stream stays open while its
 * session is unexpired (or its token still exists for that project) and its person or agent is
 * still a member of the project (a deleted project has no members); a person's own stream (no
 * project) while the session lasts.
 */
@Injectable()
export class StreamAccessQuery {
  constructor(private readonly db: Database) {}

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
