/** A live link: whose password it sets, and who made it (null when the person asked by mail). */
export interface ResetGrant {
  userId: string;
  madeBy: string | null;
}

export abstract class ResetTokenRepository {
  /** Stores a new link for the user and voids every older one. */
  abstract replace(userId: string, digest: string, expiresAt: Date, madeBy: string | null): Promise<void>;
  /** Uses a link once: answers its grant if it was live at `now`, and voids it either way. */
  abstract consume(digest: string, now: Date): Promise<ResetGrant | null>;
}
