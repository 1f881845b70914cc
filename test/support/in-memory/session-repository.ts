import { SessionRecord, SessionRepository } from '@board/accounts';

/** SessionRepository in memory, by digest. */
export class InMemorySessionRepository extends SessionRepository {
  readonly sessions = new Map<string, SessionRecord>();

  async create(session: SessionRecord): Promise<void> {
    this.sessions.set(session.digest, { ...session });
  }

  async findLive(digest: string, now: Date): Promise<SessionRecord | null> {
    const session = this.sessions.get(digest);
    return session && session.expiresAt > now ? { ...session } : null;
  }

  async delete(digest: string): Promise<void> {
    this.sessions.delete(digest);
  }

  async deleteOthers(userId: string, keepDigest: string | null): Promise<void> {
    for (const [digest, session] of this.sessions) if (session.userId === userId && digest !== keepDigest) this.sessions.delete(digest);
  }

  async countOthers(userId: string, keepDigest: string, now: Date): Promise<number> {
    return [...this.sessions.values()].filter((s) => s.userId === userId && s.digest !== keepDigest && s.expiresAt > now).length;
  }

  /** The user ids of the stored sessions, in the order they opened. */
  owners(): string[] {
    return [...this.sessions.values()].map((s) => s.userId);
  }
}
