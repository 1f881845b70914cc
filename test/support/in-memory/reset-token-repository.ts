import { ResetGrant, ResetTokenRepository } from '@board/accounts';

/** ResetTokenRepository in memory: one live link per user, used once. */
export class InMemoryResetTokenRepository extends ResetTokenRepository {
  readonly links = new Map<string, { digest: string; expiresAt: Date; madeBy: string | null }>();

  async replace(userId: string, digest: string, expiresAt: Date, madeBy: string | null): Promise<void> {
    this.links.set(userId, { digest, expiresAt, madeBy });
  }

  async consume(digest: string, now: Date): Promise<ResetGrant | null> {
    for (const [userId, link] of this.links) {
      if (link.digest !== digest) continue;
      this.links.delete(userId);
      return link.expiresAt > now ? { userId, madeBy: link.madeBy } : null;
    }
    return null;
  }
}
