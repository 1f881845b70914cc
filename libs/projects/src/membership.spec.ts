import { assertCanChangeRole, assertCanRemove, MemberRef } from './membership';
import { Role } from './role';
import { refusal } from '../../../test/support/refusal';

const OWNER = 'owner-id';
const ADMIN = 'admin-id';
const ADMIN2 = 'admin2-id';
const MEMBER = 'member-id';
const MEMBER2 = 'member2-id';
const AGENT = 'agent-id';

const ref = (userId: string, role: Role, kind: 'human' | 'agent' = 'human'): MemberRef => ({ userId, role, kind });

describe('assertCanChangeRole', () => {
  it("never moves the owner's role (only hand-over does)", () => {
    for (const actor of ['owner', 'admin', 'member'] as Role[]) {
      const e = refusal(() => assertCanChangeRole(actor, ref(OWNER, 'owner')));
      expect(e.code).toBe('member.owner_role');
    }
  });

  it("lets only the owner change an admin's role", () => {
    expect(() => assertCanChangeRole('owner', ref(ADMIN, 'admin'))).not.toThrow();
    const e = refusal(() => assertCanChangeRole('admin', ref(ADMIN2, 'admin')));
    expect(e.code).toBe('gate.owner');
    expect(e.params).toEqual({ what: "change an admin's role" });
  });

  it("lets the owner and admins change a member's role", () => {
    expect(() => assertCanChangeRole('owner', ref(MEMBER, 'member'))).not.toThrow();
    expect(() => assertCanChangeRole('admin', ref(MEMBER, 'member'))).not.toThrow();
    expect(() => assertCanChangeRole('admin', ref(AGENT, 'member', 'agent'))).not.toThrow();
  });
});

describe('assertCanRemove', () => {
  it('never removes the owner, not even by themselves', () => {
    for (const actor of [{ userId: OWNER, role: 'owner' as Role }, { userId: ADMIN, role: 'admin' as Role }]) {
      const e = refusal(() => assertCanRemove(actor, ref(OWNER, 'owner')));
      expect(e.code).toBe('member.owner_cannot_leave');
    }
  });

  it('lets anybody but the owner leave', () => {
    expect(() => assertCanRemove({ userId: MEMBER, role: 'member' }, ref(MEMBER, 'member'))).not.toThrow();
    expect(() => assertCanRemove({ userId: ADMIN, role: 'admin' }, ref(ADMIN, 'admin'))).not.toThrow();
  });

  it('refuses a member removing somebody else with gate.admin', () => {
    const e = refusal(() => assertCanRemove({ userId: MEMBER, role: 'member' }, ref(MEMBER2, 'member')));
    expect(e.code).toBe('gate.admin');
    expect(e.params).toEqual({ what: 'remove members' });
    expect(refusal(() => assertCanRemove({ userId: MEMBER, role: 'member' }, ref(ADMIN, 'admin'))).code).toBe('gate.admin');
  });

  it('lets admins remove members and agents, but only the owner remove an admin', () => {
    expect(() => assertCanRemove({ userId: ADMIN, role: 'admin' }, ref(MEMBER, 'member'))).not.toThrow();
    expect(() => assertCanRemove({ userId: ADMIN, role: 'admin' }, ref(AGENT, 'member', 'agent'))).not.toThrow();
    expect(() => assertCanRemove({ userId: OWNER, role: 'owner' }, ref(ADMIN, 'admin'))).not.toThrow();
    const e = refusal(() => assertCanRemove({ userId: ADMIN, role: 'admin' }, ref(ADMIN2, 'admin')));
    expect(e.code).toBe('gate.owner');
    expect(e.params).toEqual({ what: 'remove an admin' });
  });
});
