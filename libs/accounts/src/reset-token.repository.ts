export abstract class ResetTokenRepository {
  /** Stores a new link for the user and voids every older one. */
  abstract replace(userId: string, digest: string, expiresAt: Date): Promise<void>;
  /** Uses a link once: answers its user if it was live at `now`, and voids it either way. */
  abstract consume(digest: string, now: Date): Promise<string | null>;
}
