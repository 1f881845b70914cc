import { fail } from '@board/kernel';
import { Role } from './role';

export interface MemberRef {
  userId: string;
  role: Role;
  kind: 'human' | 'agent';
}

/** Who may give whom which role: the owner's role moves only by hand-over; an admin's only by the owner. */
export function assertCanChangeRole(actorRole: Role, target: MemberRef): void {
  if (target.role === 'owner') fail('member.owner_role');
  if (target.role === 'admin' && actorRole !== 'owner') fail('gate.owner', { what: "change an admin's role" });
}

/** The owner can never be removed; anybody else may leave, and managers may remove others. */
export function assertCanRemove(actor: { userId: string; role: Role }, target: MemberRef): void {
  if (target.role === 'owner') fail('member.owner_cannot_leave');
  if (actor.userId === target.userId) return;
  if (actor.role === 'member') fail('gate.admin', { what: 'remove members' });
  if (target.role === 'admin' && actor.role !== 'owner') fail('gate.owner', { what: 'remove an admin' });
}
