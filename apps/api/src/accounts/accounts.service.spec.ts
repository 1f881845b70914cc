import { CommonPasswords, digestOf, User } from '@board/accounts';
import { AppConfig } from '../config/app-config';
import { SessionAuth } from '../auth/auth-context';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryMemberRepository } from '../../../../test/support/in-memory/member-repository';
import { PlainPasswordHasher } from '../../../../test/support/in-memory/password-hasher';
import { InMemoryResetTokenRepository } from '../../../../test/support/in-memory/reset-token-repository';
import { InMemorySessionRepository } from '../../../../test/support/in-memory/session-repository';
import { InMemoryUserRepository } from '../../../../test/support/in-memory/user-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { TotpService } from './totp.service';
import { InMemoryTotpRepository } from '../../../../test/support/in-memory/totp-repository';
import { AccountsService } from './accounts.service';

class ListedPasswords extends CommonPasswords {
  contains(lowered: string): boolean {
    return lowered === 'password1';
  }
}

function setUp(signup: 'open' | 'invite' | 'closed' = 'open') {
  const users = new InMemoryUserRepository();
  const sessions = new InMemorySessionRepository();
  const resets = new InMemoryResetTokenRepository();
  const members = new InMemoryMemberRepository();
  const hasher = new PlainPasswordHasher();
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  const config = Object.assign(new AppConfig(), { SERVICE_SIGNUP: signup });
  const totp = new TotpService(new InMemoryTotpRepository(), users, hasher, uow, clock);
  const service = new AccountsService(users, sessions, resets, members, hasher, new ListedPasswords(), uow, totp, clock, config);
  const person = (email: string, password: string | null = 'long enough') =>
    users.put(User.restore({ ...User.registerPerson({ id: `id-${email}`, email, name: 'Ann', passwordHash: '-', now: clock.now() }).snapshot, passwordHash: password && `hashed:${password}` }));
  return { service, users, sessions, resets, members, hasher, uow, clock, person };
}

const bySession = (userId: string, digest = 'mine'): SessionAuth => ({ via: 'session', sessionDigest: digest, caller: { id: userId } } as unknown as SessionAuth);

describe('AccountsService', () => {
  describe('register', () => {
    it('stores the person, accepts their invites and opens a session, telling nobody (a silent write)', async () => {
      const { service, users, sessions, members, uow } = setUp();
      await members.addInvite('p1', 'ann@example.com', 'admin');
      const signedIn = await service.register({ email: 'ann@example.com', password: 'long enough', name: 'Ann' });
      expect(signedIn.user).toMatchObject({ email: 'ann@example.com', name: 'Ann' });
      expect((await users.findById(signedIn.user.id))?.passwordHash).toBe('hashed:long enough');
      expect(await members.find('p1', signedIn.user.id)).toMatchObject({ role: 'admin' });
      expect(sessions.sessions.get(digestOf(signedIn.sessionId))?.userId).toBe(signedIn.user.id);
      expect(uow.writes.map((w) => w.landed)).toEqual([true]);
      expect(uow.events).toEqual([]);
    });

    it('refuses a common password, a taken email, and closed sign-up, writing nothing', async () => {
      const { service, person, uow } = setUp();
      expect(await refusalCode(service.register({ email: 'ann@example.com', password: 'Password1', name: 'Ann' }))).toBe('account.password_common');
      person('bob@example.com');
      expect(await refusalCode(service.register({ email: 'bob@example.com', password: 'long enough', name: 'Bob' }))).toBe('account.email_taken');
      expect(await refusalCode(setUp('closed').service.register({ email: 'cy@example.com', password: 'long enough', name: 'Cy' }))).toBe('signup.closed');
      expect(uow.writes).toEqual([]);
    });

    it('takes an invited email only when sign-up is by invite', async () => {
      const { service, members } = setUp('invite');
      expect(await refusalCode(service.register({ email: 'ann@example.com', password: 'long enough', name: 'Ann' }))).toBe('signup.closed');
      await members.addInvite('p1', 'ann@example.com', 'member');
      expect((await service.register({ email: 'ann@example.com', password: 'long enough', name: 'Ann' })).user.email).toBe('ann@example.com');
    });
  });

  describe('login', () => {
    it('opens a session for the right pair, and pays a dummy check for an unknown email', async () => {
      const { service, person, hasher, sessions } = setUp();
      const ann = person('ann@example.com');
      const signedIn = await service.login({ email: 'ann@example.com', password: 'long enough', code: null });
      expect(signedIn.user.id).toBe(ann.id);
      expect(sessions.owners()).toEqual([ann.id]);
      expect(await refusalCode(service.login({ email: 'ann@example.com', password: 'wrong one', code: null }))).toBe('account.login_failed');
      expect(hasher.dummyChecks).toBe(0);
      expect(await refusalCode(service.login({ email: 'nobody@example.com', password: 'long enough', code: null }))).toBe('account.login_failed');
      expect(hasher.dummyChecks).toBe(1);
    });
  });

  describe('changePassword', () => {
    it('refuses a common new password before the current one is tried, then a wrong current one', async () => {
      const { service, person, hasher } = setUp();
      const ann = person('ann@example.com');
      const verify = jest.spyOn(hasher, 'verify');
      expect(await refusalCode(service.changePassword(bySession(ann.id), { current: 'wrong', next: 'password1' }))).toBe('account.password_common');
      expect(verify).not.toHaveBeenCalled();
      expect(await refusalCode(service.changePassword(bySession(ann.id), { current: 'wrong', next: 'a new one!' }))).toBe('account.wrong_password');
    });

    it('sets the password and ends the other sessions in one silent write', async () => {
      const { service, person, sessions, users, uow } = setUp();
      const ann = person('ann@example.com');
      await sessions.create({ digest: 'mine', userId: ann.id, expiresAt: new Date('2030-01-01') });
      await sessions.create({ digest: 'other', userId: ann.id, expiresAt: new Date('2030-01-01') });
      await service.changePassword(bySession(ann.id), { current: 'long enough', next: 'a new one!' });
      expect([...sessions.sessions.keys()]).toEqual(['mine']);
      expect((await users.findById(ann.id))?.passwordHash).toBe('hashed:a new one!');
      expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
    });
  });

  describe('an account without a password (made by single sign-on)', () => {
    it('sets its first password with the new one alone; then the one in use is needed', async () => {
      const { service, person, users } = setUp();
      const ann = person('ann@example.com', null);
      await service.assertPasswordChangeComplete(ann.id, { next: 'a new one!' });
      await service.changePassword(bySession(ann.id), { current: null, next: 'a new one!' });
      expect((await users.findById(ann.id))?.passwordHash).toBe('hashed:a new one!');
      expect(await refusalCode(service.assertPasswordChangeComplete(ann.id, { next: 'another one' }))).toBe('account.password_change_incomplete');
      expect(await refusalCode(service.changePassword(bySession(ann.id), { current: null, next: 'another one' }))).toBe('account.wrong_password');
    });

    it('signs in by password like a wrong password', async () => {
      const { service, person } = setUp();
      person('ann@example.com', null);
      expect(await refusalCode(service.login({ email: 'ann@example.com', password: '', code: null }))).toBe('account.login_failed');
    });
  });

  describe('reset', () => {
    it('sets the password with a live link, ends every session and opens one', async () => {
      const { service, person, resets, sessions, users, uow } = setUp();
      const ann = person('ann@example.com');
      await sessions.create({ digest: 'old', userId: ann.id, expiresAt: new Date('2030-01-01') });
      await resets.replace(ann.id, digestOf('svcr_link'), new Date('2030-01-01'), null);
      const signedIn = await service.reset({ password: 'a new one!', token: 'svcr_link' });
      expect(signedIn.user.id).toBe(ann.id);
      expect([...sessions.sessions.keys()]).toEqual([digestOf(signedIn.sessionId)]);
      expect((await users.findById(ann.id))?.passwordHash).toBe('hashed:a new one!');
      expect(uow.events).toEqual([]);
      // Used once.
      expect(await refusalCode(service.reset({ password: 'a new one!', token: 'svcr_link' }))).toBe('reset.dead_link');
    });

    it('refuses no token, an unknown one, and a member link that reaches past its maker', async () => {
      const { service, person, resets, members } = setUp();
      const ann = person('ann@example.com');
      expect(await refusalCode(service.reset({ password: 'a new one!', token: '' }))).toBe('reset.dead_link');
      expect(await refusalCode(service.reset({ password: 'a new one!', token: 'svcr_unknown' }))).toBe('reset.dead_link');
      await members.add('p1', 'admin-1', 'admin');
      await members.add('p2', ann.id, 'member');
      await resets.replace(ann.id, digestOf('svcr_member'), new Date('2030-01-01'), 'admin-1');
      expect(await refusalCode(service.reset({ password: 'a new one!', token: 'svcr_member' }))).toBe('reset.dead_link');
      expect(await refusalCode(service.reset({ password: 'password1', token: 'svcr_member' }))).toBe('account.password_common');
    });
  });

  it('changes a profile, and refuses a caller whose account is gone', async () => {
    const { service, person, users } = setUp();
    const ann = person('ann@example.com');
    expect((await service.updateMe(bySession(ann.id), { name: 'Annie' })).name).toBe('Annie');
    expect((await users.findById(ann.id))?.view.name).toBe('Annie');
    expect(await refusalCode(service.me(bySession('gone')))).toBe('auth.signin_required');
  });
});
