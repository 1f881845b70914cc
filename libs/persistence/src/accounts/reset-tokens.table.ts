import { ResetGrant } from '@board/accounts';
import { raw } from '../sql';

/** `reset_tokens`: at most one live link per person, keyed by the digest of its token. */
export const RESET_TOKEN_COLUMNS = raw('user_id, expires_at, made_by');

export interface ResetTokenRow {
  user_id: string;
  expires_at: Date;
  made_by: string | null;
}

/** The grant of a link, or null once it has expired. */
export const toResetGrant = (r: ResetTokenRow, now: Date): ResetGrant | null => (r.expires_at > now ? { userId: r.user_id, madeBy: r.made_by } : null);
