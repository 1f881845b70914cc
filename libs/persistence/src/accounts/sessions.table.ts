import { SessionRecord } from '@board/accounts';
import { raw } from '../sql';

/** `sessions`: one row per signed-in browser, keyed by the digest of its cookie's id. */
export const SESSION_COLUMNS = raw('digest, user_id, expires_at');

export interface SessionRow {
  digest: string;
  user_id: string;
  expires_at: Date;
}

export const toSession = (r: SessionRow): SessionRecord => ({ digest: r.digest, userId: r.user_id, expiresAt: r.expires_at });
