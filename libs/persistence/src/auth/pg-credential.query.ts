import { Injectable } from '@nestjs/common';
import type { Role } from '@board/projects';
import { Database } from '../database';
import { ResolvedScope, SCOPE_COLUMNS, scopeJoin, ScopeTarget } from '../scope.sql';
import { raw, sql } from '../sql';
import { AGENT_TOKEN_CREDENTIAL_COLUMNS, AgentTokenCredentialRow } from '../projects/agent-tokens.table';
import { USER_VIEW_COLUMNS } from '../accounts/users.table';
import { Credential, CredentialQuery, CredentialUser } from './credential.query';

const NOTHING = raw('');
const WITH_SCOPE = sql`, ${SCOPE_COLUMNS}`;
const USER_ID = raw('u.id');

interface ScopeColumns {
  scope_project_id?: string | null;
  scope_role?: Role | null;
}

/** The credential checks in SQL, one query each (the route's target joined in, `scopeJoin`). */
@Injectable()
export class PgCredentialQuery extends CredentialQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** The person behind a live session, and when the session ends. */
  async personBySession(digest: string, now: Date, target?: ScopeTarget): Promise<Credential<{ expiresAt: Date }> | null> {
    const row = await this.db.one<CredentialUser & ScopeColumns & { expiresAt: Date }>(
      sql`SELECT ${USER_VIEW_COLUMNS}, s.expires_at AS "expiresAt"${target ? WITH_SCOPE : NOTHING}
         FROM sessions s JOIN users u ON u.id = s.user_id
         ${target ? scopeJoin(target, USER_ID) : NOTHING}
        WHERE s.digest = ${digest} AND s.expires_at > ${now} AND u.kind = 'human'`,
      { prepare: true },
    );
    return row ? withScope(row, target) : null;
  }

  /** The agent behind a live token, and its project; stamps the token's use (coarsely, once a minute). */
  async agentByToken(digest: string, now: Date, target?: ScopeTarget): Promise<Credential<{ projectId: string }> | null> {
    const row = await this.db.one<CredentialUser & ScopeColumns & AgentTokenCredentialRow>(
      sql`SELECT ${USER_VIEW_COLUMNS}, ${AGENT_TOKEN_CREDENTIAL_COLUMNS}
              ${target ? WITH_SCOPE : NOTHING}
         FROM agent_tokens t JOIN users u ON u.id = t.agent_id
         ${target ? scopeJoin(target, USER_ID) : NOTHING}
        WHERE t.digest = ${digest}`,
      { prepare: true },
    );
    if (!row) return null;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      await this.db.exec(sql`UPDATE agent_tokens SET last_used_at = ${now} WHERE project_id = ${row.projectId} AND id = ${row.tokenId}`);
    }
    const { tokenId: _t, lastUsedAt: _l, ...agent } = row;
    return withScope(agent, target);
  }
}

function withScope<T extends ScopeColumns>(row: T, target: ScopeTarget | undefined): Omit<T, keyof ScopeColumns> & { scope?: ResolvedScope } {
  const { scope_project_id, scope_role, ...rest } = row;
  return target ? { ...rest, scope: { projectId: scope_project_id ?? null, role: scope_role ?? null } } : rest;
}
