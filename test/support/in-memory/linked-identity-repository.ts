import { LinkedIdentityRepository } from '@board/accounts';

/** LinkedIdentityRepository in memory: `issuer subject` → account; the first link stands. */
export class InMemoryLinkedIdentityRepository extends LinkedIdentityRepository {
  readonly links = new Map<string, string>();

  async userOf(issuer: string, subject: string): Promise<string | null> {
    return this.links.get(`${issuer} ${subject}`) ?? null;
  }

  async link(issuer: string, subject: string, userId: string): Promise<void> {
    if (!this.links.has(`${issuer} ${subject}`)) this.links.set(`${issuer} ${subject}`, userId);
  }
}
