import { Injectable } from '@nestjs/common';
import type { UserKind, UserView } from '@board/accounts';
import { Database } from '../database';

export type CredentialUser = UserView & { kind: UserKind };

/**
 * The credential checks every request makes, one query each: a session with its person, a
 * token with its agent. (Reads only; the aggregates are not needed to say who calls.)
 */
@Injectable()
export class CredentialQueries {
  constructor(private readonly db: Database) {}

  async personBySession(digest: string, now: Date): Promise<CredentialUser | null> {
    return this.db.one<CredentialUser>(
      `SELECT u.id, u.kind, u.email, u.name, u.color, u.emoji
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.digest = $1 AND s.expires_at > $2 AND u.kind = 'human'`,
      [digest, now],
      { prepare: true },
    );
  }

  /** The agent behind a live token, and its project; stamps the token's use (coarsely, once a minute). */
  async agentByToken(digest: string, now: Date): Promise<(CredentialUser & { projectId: string }) | null> {
    const row = await this.db.one<CredentialUser & { projectId: string; tokenId: string; lastUsedAt: Date | null }>(
      `SELECT u.id, u.kind, u.email, u.name, u.color, u.emoji, t.project_id AS "projectId", t.id AS "tokenId", t.last_used_at AS "lastUsedAt"
         FROM agent_tokens t JOIN users u ON u.id = t.agent_id
        WHERE t.digest = $1`,
      [digest],
      { prepare: true },
    );
    if (!row) return null;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      await this.db.exec('UPDATE agent_tokens SET last_used_at = $3 WHERE project_id = $1 AND id = $2', [row.projectId, row.tokenId, now]);
    }
    const { tokenId: _t, lastUsedAt: _l, ...agent } = row;
    return agent;
  }
}
