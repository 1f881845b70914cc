import { CommonPasswords, ProviderIdentity, SignOnChecks, SingleSignOn, User } from '@board/accounts';
import { AppConfig, loadConfig } from '../config/app-config';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryLinkedIdentityRepository } from '../../../../test/support/in-memory/linked-identity-repository';
import { InMemoryMemberRepository } from '../../../../test/support/in-memory/member-repository';
import { PlainPasswordHasher } from '../../../../test/support/in-memory/password-hasher';
import { InMemoryResetTokenRepository } from '../../../../test/support/in-memory/reset-token-repository';
import { InMemorySessionRepository } from '../../../../test/support/in-memory/session-repository';
import { InMemoryTotpRepository } from '../../../../test/support/in-memory/totp-repository';
import { InMemoryUserRepository } from '../../../../test/support/in-memory/user-repository';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { AccountsService } from './accounts.service';
import { OidcService } from './oidc.service';
import { SIGN_ON_LIFETIME_MS } from './sign-on-seal';
import { TotpService } from './totp.service';

const ISSUER = 'https://id.example.com';

/** A provider that answers whoever the spec says signed in, and records what it was asked. */
class ScriptedSignOn extends SingleSignOn {
  identity: ProviderIdentity = { issuer: ISSUER, subject: 'sub-1', email: 'ann@example.com', emailVerified: true, name: 'Ann' };
  readonly finished: { url: string; checks: SignOnChecks }[] = [];

  async start(redirectUri: string) {
    return { url: `${ISSUER}/auth?redirect_uri=${encodeURIComponent(redirectUri)}`, checks: { state: 'the-state', nonce: 'the-nonce', codeVerifier: 'the-verifier' } };
  }

  async finish(callbackUrl: URL, checks: SignOnChecks) {
    this.finished.push({ url: callbackUrl.href, checks });
    return this.identity;
  }
}

class NoCommonPasswords extends CommonPasswords {
  contains(): boolean {
    return false;
  }
}

function setUp(signup: 'open' | 'invite' | 'closed' = 'open', oidc = true) {
  const users = new InMemoryUserRepository();
  const members = new InMemoryMemberRepository();
  const identities = new InMemoryLinkedIdentityRepository();
  const sessions = new InMemorySessionRepository();
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  const hasher = new PlainPasswordHasher();
  const config = loadConfig({
    SERVICE_SIGNUP: signup,
    ...(oidc ? { SERVICE_OIDC_ISSUER: ISSUER, SERVICE_OIDC_CLIENT_ID: 'board', SERVICE_OIDC_CLIENT_SECRET: 'a secret of the client' } : {}),
  });
  const totp = new TotpService(new InMemoryTotpRepository(), users, hasher, uow, clock);
  const accounts = new AccountsService(users, sessions, new InMemoryResetTokenRepository(), members, hasher, new NoCommonPasswords(), uow, totp, clock, config);
  const signOn = new ScriptedSignOn();
  const service = new OidcService(signOn, identities, users, members, accounts, uow, clock, config);
  /** Out to the provider and back with the state it sent out, as a browser does. */
  const roundTrip = async (query = 'code=c0de&state=the-state') => {
    const { sealed } = await service.start('https://board.example.com');
    return service.finish('https://board.example.com', `?${query}`, sealed);
  };
  const person = (email: string) => users.put(User.registerPerson({ id: `id-${email}`, email, name: 'Known', passwordHash: 'hashed:long enough', now: clock.now() }));
  return { service, signOn, users, members, identities, sessions, uow, clock, roundTrip, person, config };
}

describe('OidcService', () => {
  it('sends the browser out with the callback under the board’s address, the checks sealed for its cookie', async () => {
    const { service, signOn } = setUp();
    const out = await service.start('https://board.example.com');
    expect(out.url).toBe(`${ISSUER}/auth?redirect_uri=${encodeURIComponent('https://board.example.com/api/auth/oidc/callback')}`);
    expect(out.seconds).toBe(SIGN_ON_LIFETIME_MS / 1000);
    for (const secret of ['the-state', 'the-nonce', 'the-verifier']) expect(out.sealed).not.toContain(secret);
    await service.finish('https://board.example.com', '?code=c0de&state=the-state', out.sealed);
    expect(signOn.finished).toEqual([
      { url: 'https://board.example.com/api/auth/oidc/callback?code=c0de&state=the-state', checks: { state: 'the-state', nonce: 'the-nonce', codeVerifier: 'the-verifier' } },
    ]);
  });

  it('refuses a way back without its cookie, with another state, or too late, before asking the provider', async () => {
    const { service, signOn, clock, roundTrip } = setUp();
    expect(await refusalCode(service.finish('https://board.example.com', '?code=c&state=the-state', undefined))).toBe('oidc.state_refused');
    expect(await refusalCode(roundTrip('code=c&state=another'))).toBe('oidc.state_refused');
    expect(await refusalCode(roundTrip('code=c'))).toBe('oidc.state_refused');
    const { sealed } = await service.start('https://board.example.com');
    clock.advance(SIGN_ON_LIFETIME_MS);
    expect(await refusalCode(service.finish('https://board.example.com', '?code=c&state=the-state', sealed))).toBe('oidc.state_refused');
    expect(signOn.finished).toEqual([]);
  });

  it('registers a new identity as an account without a password, its invites joined, linked, in one silent write', async () => {
    const { roundTrip, users, members, identities, sessions, uow } = setUp();
    await members.addInvite('p1', 'ann@example.com', 'admin');
    const done = await roundTrip();
    expect(done.linked).toBe(false);
    const user = await users.findById(done.userId);
    expect(user?.snapshot).toMatchObject({ email: 'ann@example.com', name: 'Ann', passwordHash: null, kind: 'human' });
    expect(await members.find('p1', done.userId)).toMatchObject({ role: 'admin' });
    expect(await identities.userOf(ISSUER, 'sub-1')).toBe(done.userId);
    expect(sessions.owners()).toEqual([done.userId]);
    expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
  });

  it('signs the linked account in whatever the email says now', async () => {
    const { roundTrip, signOn, users } = setUp();
    const first = await roundTrip();
    signOn.identity = { ...signOn.identity, email: 'changed@example.com', emailVerified: false };
    const again = await roundTrip();
    expect(again).toMatchObject({ userId: first.userId, linked: false });
    expect(users.rows.size).toBe(1);
  });

  it('links the account of a verified email, and says so', async () => {
    const { roundTrip, signOn, person, identities } = setUp('closed');
    const known = person('ann@example.com');
    signOn.identity = { ...signOn.identity, email: ' ANN@Example.com ' };
    expect(await roundTrip()).toMatchObject({ userId: known.id, linked: true });
    expect(await identities.userOf(ISSUER, 'sub-1')).toBe(known.id);
  });

  it('refuses an unverified or missing email, and a new account under closed or invite-only sign-up, writing nothing', async () => {
    const unverified = setUp();
    unverified.person('ann@example.com');
    for (const identity of [{ emailVerified: false }, { email: null }]) {
      unverified.signOn.identity = { ...unverified.signOn.identity, ...identity };
      expect(await refusalCode(unverified.roundTrip())).toBe('oidc.email_unverified');
    }
    expect(unverified.uow.writes).toEqual([]);
    for (const signup of ['closed', 'invite'] as const) {
      const { roundTrip, uow, users } = setUp(signup);
      expect(await refusalCode(roundTrip())).toBe('signup.closed');
      expect([uow.writes, users.rows.size]).toEqual([[], 0]);
    }
  });

  it('takes the provider’s name as it can be stored, else the email’s first part', async () => {
    const { roundTrip, signOn, users } = setUp();
    signOn.identity = { ...signOn.identity, name: `  Ann\n\u0000Lee ${'x'.repeat(100)}` };
    const named = await users.findById((await roundTrip()).userId);
    expect(named?.name).toBe(`Ann Lee ${'x'.repeat(72)}`);
    signOn.identity = { issuer: ISSUER, subject: 'sub-2', email: 'bo.b@example.com', emailVerified: true, name: ' \t ' };
    expect((await users.findById((await roundTrip()).userId))?.name).toBe('bo.b');
  });

  it('is off without the three settings', async () => {
    const { service } = setUp('open', false);
    expect(await refusalCode(service.start('https://board.example.com'))).toBe('oidc.off');
    expect(await refusalCode(service.finish('https://board.example.com', '', 'x.y.z'))).toBe('oidc.off');
  });
});

describe('single sign-on settings', () => {
  const three = { SERVICE_OIDC_ISSUER: 'https://id.example.com', SERVICE_OIDC_CLIENT_ID: 'board', SERVICE_OIDC_CLIENT_SECRET: 's3cret' };

  it('is on with all three, labelled "Single sign-on" unless named', () => {
    expect(loadConfig(three).oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'board', clientSecret: 's3cret', name: 'Single sign-on' });
    expect(loadConfig({ ...three, SERVICE_OIDC_NAME: 'Company login' }).oidc?.name).toBe('Company login');
    expect(new AppConfig().oidc).toBeNull();
  });

  it('refuses to start with one or two of them, or an issuer over plain HTTP away from this machine, naming never a value', () => {
    expect(() => loadConfig({ SERVICE_OIDC_CLIENT_SECRET: 's3cret' })).toThrow('Invalid configuration: SERVICE_OIDC_ISSUER, SERVICE_OIDC_CLIENT_ID');
    expect(() => loadConfig({ ...three, SERVICE_OIDC_ISSUER: 'http://id.example.com' })).toThrow('Invalid configuration: SERVICE_OIDC_ISSUER');
    expect(() => loadConfig({ ...three, SERVICE_OIDC_ISSUER: 'not a url' })).toThrow('Invalid configuration: SERVICE_OIDC_ISSUER');
    expect(loadConfig({ ...three, SERVICE_OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidc?.issuer).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ ...three, SERVICE_OIDC_ISSUER: 'http://localhost:8080/realms/x' }).oidc?.issuer).toBe('http://localhost:8080/realms/x');
  });
});
