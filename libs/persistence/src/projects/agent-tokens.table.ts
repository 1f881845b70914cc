import { raw } from '../sql';

/** `agent_tokens`: a token as the project's settings list it (never its digest). */
export const AGENT_TOKEN_VIEW_COLUMNS = raw('id, agent_id AS "agentId", prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt"');

export interface AgentTokenView {
  id: string;
  agentId: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** `agent_tokens t`: what a request's token check reads besides its agent (the project, and when the token was last stamped). */
export const AGENT_TOKEN_CREDENTIAL_COLUMNS = raw('t.project_id AS "projectId", t.id AS "tokenId", t.last_used_at AS "lastUsedAt"');

export interface AgentTokenCredentialRow {
  projectId: string;
  tokenId: string;
  lastUsedAt: Date | null;
}
