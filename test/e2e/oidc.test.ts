import { codeAt } from '@board/accounts';
import { Clock } from '@board/kernel';
import { Client, createProject, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';
import { expectStatus } from '../support/fixtures';
import { CookieBrowser, Page } from '../support/cookie-browser';
import { ProviderClaims, TestOpenIdProvider } from '../support/oidc-provider';

const UNVERIFIED = 'The sign-in provider has not verified your email address. Verify it there, then try again.';
const STATE_REFUSED = 'That sign-in did not start in this browser, or took too long. Try again.';
const PROVIDER_REFUSED = 'The sign-in provider did not confirm who you are. Try again.';
const CLOSED = 'This board is not taking new accounts. Ask the owner to add you.';
const OFF = 'Single sign-on is not set up on this board.';

type Log = { events: { kind: string }[] };

/** The board's clock, which a test moves forward (the provider keeps the real time). */
class SkipClock extends Clock {
  private ahead = 0;
  now(): Date {
    return new Date(Date.now() + this.ahead);
  }
  skip(ms: number): void {
    this.ahead += ms;
  }
}
type Me = { user: { id: string; email: string; name: string; totp: boolean } };

/**
 * Single sign-on (extensions.md § 3.2) through HTTP against a real OpenID provider started here
 * (oidc-provider): real redirects, real forms at the provider, real signed ID tokens checked by
 * the board. Three boards share one database (open, invite-only and closed sign-up), one has no
 * provider at all.
 */
describe('single sign-on (OpenID Connect)', () => {
  let provider: TestOpenIdProvider;
  let open: TestApp;
  let invite: TestApp;
  let closed: TestApp;
  let plain: TestApp;
  const clock = new SkipClock();
  const origin = (t: TestApp) => t.api.replace(/\/api$/, '');

  beforeAll(async () => {
    provider = await TestOpenIdProvider.start();
    open = await startTestApp({ clock, env: provider.env() });
    invite = await startTestApp({ databaseUrl: open.databaseUrl, env: { ...provider.env(), SERVICE_SIGNUP: 'invite' } });
    closed = await startTestApp({ databaseUrl: open.databaseUrl, env: { ...provider.env(), SERVICE_SIGNUP: 'closed' } });
    plain = await startTestApp();
    provider.serve([open, invite, closed].map((t) => `${origin(t)}/api/auth/oidc/callback`));
  });
  afterAll(async () => {
    for (const t of [open, invite, closed, plain]) await t?.close();
    await provider?.close();
  });

  const isCallback = (url: URL) => url.pathname === '/api/auth/oidc/callback';

  /**
   * Sets out from the board, signs in at the provider as `login` and consents; stops before the
   * way back reaches the board, answering the callback address the provider sent the browser to.
   */
  async function toCallback(t: TestApp, browser: CookieBrowser, login: string): Promise<URL> {
    const out = await browser.open(`${origin(t)}/api/auth/oidc`);
    expect(out.status).toBe(302);
    expect(out.location?.origin).toBe(provider.issuer);
    // Authorisation code with PKCE (S256), state and nonce.
    expect(Object.fromEntries(['response_type', 'code_challenge_method'].map((k) => [k, out.location?.searchParams.get(k)]))).toEqual({ response_type: 'code', code_challenge_method: 'S256' });
    for (const k of ['code_challenge', 'state', 'nonce']) expect(out.location?.searchParams.get(k)).toMatch(/^[\w-]{20,}$/);
    expect(out.location?.searchParams.get('scope')).toBe('openid email profile');

    const signIn = await browser.follow(out.location!, isCallback);
    expect(signIn.page.status).toBe(200);
    expect(signIn.page.text).toContain('name="login"');
    let step = await browser.submit(signIn.page, { login, password: 'anything' }, isCallback);
    // The provider asks to consent to the scopes once per account.
    if (!step.stoppedAt) step = await browser.submit(step.page, {}, isCallback);
    if (!step.stoppedAt) throw new Error(`the provider did not send the browser back: ${step.page.status} ${step.page.text.slice(0, 300)}`);
    return step.stoppedAt;
  }

  /** Comes back to the board: where it sent the browser, and a client with the session it set. */
  async function back(t: TestApp, browser: CookieBrowser, callback: URL): Promise<{ landing: Page; client: Client }> {
    const landing = await browser.open(callback);
    expect(landing.status).toBe(302);
    const client = new Client(t.api);
    client.cookie = browser.cookie(origin(t), 'service_session');
    return { landing, client };
  }

  async function signOn(t: TestApp, login: string, browser = new CookieBrowser()) {
    return back(t, browser, await toCallback(t, browser, login));
  }

  const signinError = (landing: Page) => {
    expect(landing.location?.pathname).toBe('/');
    return landing.location?.searchParams.get('signin_error');
  };
  const kinds = async (client: Client) => (await expectStatus(client.get<Log>('/auth/me/security'), 200)).events.map((e) => e.kind);
  const account = (claims: ProviderClaims) => provider.account(claims);

  it('answers what the sign-in screen offers, with and without single sign-on', async () => {
    expect((await new Client(open.api).get('/auth/config')).body).toEqual({ signup: 'open', oidc: { name: 'Company login' }, mail: false });
    expect((await new Client(invite.api).get('/auth/config')).body).toEqual({ signup: 'invite', oidc: { name: 'Company login' }, mail: false });
    expect((await new Client(plain.api).get('/auth/config')).body).toEqual({ signup: 'open', oidc: null, mail: false });
  });

  it('says single sign-on is off on a board without a provider', async () => {
    const browser = new CookieBrowser();
    for (const path of ['/api/auth/oidc', '/api/auth/oidc/callback?code=x&state=y']) {
      const page = await browser.open(`${origin(plain)}${path}`);
      expect(page.status).toBe(302);
      expect(signinError(page)).toBe(OFF);
    }
  });

  it('registers a new account for a new identity, then signs the same subject in to it again', async () => {
    const email = uniqueEmail('ada');
    const login = account({ email: email.toUpperCase(), email_verified: true, name: 'Ada Lovelace' });
    const first = await signOn(open, login);
    expect(first.landing.location?.href).toBe(`${origin(open)}/`);
    // The session cookie is set the way login sets it.
    const me = await expectStatus(first.client.get<Me>('/auth/me'), 200);
    expect(me.user).toMatchObject({ email, name: 'Ada Lovelace', totp: false });
    expect(await kinds(first.client)).toEqual(['signed_in']);
    const { rows } = await open.sql.query('SELECT u.password_hash, i.issuer, i.subject FROM users u JOIN oidc_identities i ON i.user_id = u.id WHERE u.id = $1', [me.user.id]);
    expect(rows).toEqual([{ password_hash: null, issuer: provider.issuer, subject: login }]);

    // The provider's email changes (even to an unverified one): the subject still signs in to its account.
    provider.change(login, { email: uniqueEmail('ada-new'), email_verified: false, name: 'Ada' });
    const again = await signOn(open, login);
    expect((await expectStatus(again.client.get<Me>('/auth/me'), 200)).user.id).toBe(me.user.id);
    expect(await kinds(again.client)).toEqual(['signed_in', 'signed_in']);
  });

  it('leaves an account it made without a password until it sets one', async () => {
    const email = uniqueEmail('bo');
    const { client } = await signOn(open, account({ email, email_verified: true, name: 'Bo' }));
    const login = (password: string) => new Client(open.api).post('/auth/login', { email, password });
    expect([(await login('')).status, (await login('anything at all')).body]).toEqual([401, { error: 'That email and password do not match.' }]);
    // Without a password there is none to send: the new one alone sets it (its length still counts).
    expect((await client.post('/auth/password', { next: 'short' })).body).toEqual({ error: 'The new password must have at least 8 characters.' });
    expect((await client.post('/auth/password', {})).body).toEqual({ error: 'Send the password you use now and the one you want.' });
    await expectStatus(client.post('/auth/password', { next: 'my first password' }), 200);
    expect((await login('my first password')).status).toBe(200);
    // From now on the one in use is needed, as for everybody.
    expect((await client.post('/auth/password', { next: 'another password' })).body).toEqual({ error: 'Send the password you use now and the one you want.' });
    expect((await client.post('/auth/password', { current: 'not it at all', next: 'another password' })).status).toBe(403);
    expect((await kinds(client)).slice(0, 2)).toEqual(['signed_in', 'password_changed']);
  });

  it('links an existing account by the email the provider verified, and records oidc_linked', async () => {
    const person = await registerPerson(open, 'Cy', uniqueEmail('cy'));
    const login = account({ email: ` ${person.email.toUpperCase()} `, email_verified: true, name: 'Someone else' });
    const { landing, client } = await signOn(open, login);
    expect(landing.location?.href).toBe(`${origin(open)}/`);
    const me = await expectStatus(client.get<Me>('/auth/me'), 200);
    expect(me.user).toMatchObject({ id: person.user.id, name: 'Cy' });
    expect(await kinds(client)).toEqual(['signed_in', 'oidc_linked', 'signed_in']);
    // Its password still works; the provider now signs in to it without asking the email again.
    expect((await new Client(open.api).post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
    provider.change(login, { email_verified: false });
    expect((await expectStatus((await signOn(open, login)).client.get<Me>('/auth/me'), 200)).user.id).toBe(person.user.id);
  });

  it('does not ask the two-step code of an account that signs in by single sign-on', async () => {
    const person = await registerPerson(open, 'Dee', uniqueEmail('dee'));
    const { secret } = await expectStatus(person.client.post<{ secret: string }>('/auth/totp/setup'), 200);
    await expectStatus(person.client.post('/auth/totp/enable', { code: codeAt(secret, new Date()) }), 200);
    const { client } = await signOn(open, account({ email: person.email, email_verified: true }));
    expect((await expectStatus(client.get<Me>('/auth/me'), 200)).user).toMatchObject({ id: person.user.id, totp: true });
  });

  it('refuses an email the provider has not verified: no account made, none linked', async () => {
    const taken = await registerPerson(open, 'Eve', uniqueEmail('eve'));
    const before = (await open.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n;
    for (const claims of [{ email: uniqueEmail('fay'), email_verified: false }, { email: taken.email }, {}] as ProviderClaims[]) {
      const browser = new CookieBrowser();
      const { landing, client } = await signOn(open, account(claims), browser);
      expect(signinError(landing)).toBe(UNVERIFIED);
      expect(client.cookie).toBeUndefined();
    }
    expect((await open.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
    expect(await kinds(taken.client)).toEqual(['signed_in']);
  });

  it('refuses a way back with a forged, missing, stale or other browser\u2019s state', async () => {
    const login = account({ email: uniqueEmail('gil'), email_verified: true });
    const expectRefused = async (browser: CookieBrowser, url: URL) => {
      const { landing, client } = await back(open, browser, url);
      expect(signinError(landing)).toBe(STATE_REFUSED);
      expect(client.cookie).toBeUndefined();
    };

    // Another browser than the one that set out (a code handed to a victim: login forgery).
    const mine = new CookieBrowser();
    const callback = await toCallback(open, mine, login);
    const sealed = mine.cookie(callback, 'service_oidc');
    expect(sealed).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await expectRefused(new CookieBrowser(), callback);
    // A cookie made elsewhere, or changed.
    for (const planted of [`${sealed!.slice(0, -2)}AA`, 'a.b.c', sealed!.split('.').slice(0, 2).join('.')]) {
      const other = new CookieBrowser();
      other.plant(origin(open), 'service_oidc', planted, '/api/auth/oidc');
      await expectRefused(other, callback);
    }
    // The state changed on the way back.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-that-went-out');
    await expectRefused(mine, forged);
    // The checks work once: that way back cleared them.
    expect(mine.cookie(callback, 'service_oidc')).toBeUndefined();
    await expectRefused(mine, callback);
    // Past ten minutes the cookie is stale, whatever the browser kept.
    const late = new CookieBrowser();
    const lateCallback = await toCallback(open, late, login);
    clock.skip(10 * 60_000 + 1000);
    await expectRefused(late, lateCallback);

    // With its own cookie and state intact, the same browser signs in.
    const fresh = new CookieBrowser();
    const ok = await back(open, fresh, await toCallback(open, fresh, login));
    expect(ok.landing.location?.href).toBe(`${origin(open)}/`);
  });

  it('refuses a sign-in the person cancelled at the provider', async () => {
    const browser = new CookieBrowser();
    const out = await browser.open(`${origin(open)}/api/auth/oidc`);
    const signIn = await browser.follow(out.location!, isCallback);
    const uid = /\/interaction\/([^/"]+)/.exec(signIn.page.url.pathname)?.[1];
    const cancelled = await browser.follow(`${provider.issuer}/interaction/${uid}/abort`, isCallback);
    expect(cancelled.stoppedAt?.searchParams.get('error')).toBe('access_denied');
    const { landing } = await back(open, browser, cancelled.stoppedAt!);
    expect(signinError(landing)).toBe(PROVIDER_REFUSED);
  });

  it('registers nobody new when sign-up is closed, and still signs in an account that exists', async () => {
    const { landing } = await signOn(closed, account({ email: uniqueEmail('hal'), email_verified: true }));
    expect(signinError(landing)).toBe(CLOSED);
    const person = await registerPerson(open, 'Ivy', uniqueEmail('ivy'));
    const { client } = await signOn(closed, account({ email: person.email, email_verified: true }));
    expect((await expectStatus(client.get<Me>('/auth/me'), 200)).user.id).toBe(person.user.id);
  });

  it('honours an invite under invite-only sign-up: the account is made and joins the project; no invite, no account', async () => {
    const owner = await registerPerson(open, 'Jo');
    const project = await createProject(owner.client, 'Invited', 'INV');
    const email = uniqueEmail('kim');
    await expectStatus(owner.client.post(`/projects/${project.id}/members`, { email: email.toUpperCase() }), 201);
    const { landing, client } = await signOn(invite, account({ email, email_verified: true, name: 'Kim' }));
    expect(landing.location?.href).toBe(`${origin(invite)}/`);
    const projects = await expectStatus(client.get<{ projects: { id: string; role: string }[] }>('/projects'), 200);
    expect(projects.projects).toEqual([expect.objectContaining({ id: project.id, role: 'member' })]);
    const invites = await open.sql.query('SELECT 1 FROM invites WHERE email = $1', [email]);
    expect(invites.rows).toEqual([]);

    const stranger = await signOn(invite, account({ email: uniqueEmail('lee'), email_verified: true }));
    expect(signinError(stranger.landing)).toBe(CLOSED);
  });
});
