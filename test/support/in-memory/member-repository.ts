import { fail } from '@board/kernel';
import { MemberRepository, Membership, Role } from '@board/projects';

/** MemberRepository in memory. A user id in `agents` joins as an agent; anybody else as a person. */
export class InMemoryMemberRepository extends MemberRepository {
  readonly members: Membership[] = [];
  readonly invites: { projectId: string; email: string; role: 'member' | 'admin'; createdAt: Date }[] = [];
  readonly agents = new Set<string>();

  async find(projectId: string, userId: string): Promise<Membership | null> {
    const found = this.members.find((m) => m.projectId === projectId && m.userId === userId);
    return found ? { ...found } : null;
  }

  async add(projectId: string, userId: string, role: Role): Promise<void> {
    if (this.members.some((m) => m.projectId === projectId && m.userId === userId)) fail('member.already');
    this.members.push({ projectId, userId, role, kind: this.agents.has(userId) ? 'agent' : 'human' });
  }

  async setRole(projectId: string, userId: string, role: Role): Promise<void> {
    for (const m of this.members) if (m.projectId === projectId && m.userId === userId) m.role = role;
  }

  async remove(projectId: string, userId: string): Promise<void> {
    const at = this.members.findIndex((m) => m.projectId === projectId && m.userId === userId);
    if (at >= 0) this.members.splice(at, 1);
  }

  async place(): Promise<void> {}

  async addInvite(projectId: string, email: string, role: 'member' | 'admin'): Promise<{ email: string; createdAt: Date }> {
    const invite = { projectId, email, role, createdAt: new Date(Date.UTC(2026, 0, 1)) };
    this.invites.push(invite);
    return { email, createdAt: invite.createdAt };
  }

  async removeInvite(projectId: string, email: string): Promise<boolean> {
    const at = this.invites.findIndex((i) => i.projectId === projectId && i.email === email);
    if (at < 0) return false;
    this.invites.splice(at, 1);
    return true;
  }

  async acceptInvites(email: string, userId: string): Promise<void> {
    for (const invite of this.invites.filter((i) => i.email === email)) await this.add(invite.projectId, userId, invite.role);
    this.invites.splice(0, this.invites.length, ...this.invites.filter((i) => i.email !== email));
  }

  async hasInvite(email: string): Promise<boolean> {
    return this.invites.some((i) => i.email === email);
  }

  async inProjectsBeyond(userId: string, managerId: string): Promise<boolean> {
    const managed = new Set(this.members.filter((m) => m.userId === managerId && m.role !== 'member').map((m) => m.projectId));
    return this.members.some((m) => m.userId === userId && !managed.has(m.projectId));
  }
}
