import { DAY } from '@board/kernel';

export const SESSION_LIFETIME_MS = 30 * DAY;
export const SESSION_COOKIE = 'service_session';

export interface SessionRecord {
  digest: string;
  userId: string;
  expiresAt: Date;
}

export abstract class SessionRepository {
  abstract create(session: SessionRecord): Promise<void>;
  /** The session behind a digest if it has not expired at `now`. */
  abstract findLive(digest: string, now: Date): Promise<SessionRecord | null>;
  abstract delete(digest: string): Promise<void>;
  /** Ends every session of the user except `keepDigest` (null ends them all). */
  abstract deleteOthers(userId: string, keepDigest: string | null): Promise<void>;
  abstract countOthers(userId: string, keepDigest: string, now: Date): Promise<number>;
}
