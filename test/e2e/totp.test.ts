import { codeAt } from '@board/accounts';
import { Clock } from '@board/kernel';
import { Client, registerPerson, startTestApp, TestApp, Person } from '../support/test-app';
import { expectStatus } from '../support/fixtures';

/** A clock the test moves: codes are computed from the secret at the service's own time. */
class StepClock extends Clock {
  at = new Date('2026-11-26T12:00:05Z');
  now(): Date {
    return new Date(this.at);
  }
  steps(n: number): void {
    this.at = new Date(this.at.getTime() + n * 30_000);
  }
}

const NEEDS_CODE = { error: 'Enter the code from your authenticator app.', needsCode: true };
const WRONG_CODE = { error: 'That code is not right.' };

/** Two-step sign-in (extensions.md § 3.1) through HTTP, every sentence included. */
describe('two-step sign-in (TOTP)', () => {
  let t: TestApp;
  const clock = new StepClock();
  beforeAll(async () => {
    // Each person signs in from an address of their own: the login throttle counts by address.
    t = await startTestApp({ clock, env: { SERVICE_TRUST_PROXY: 'true' } });
  });
  afterAll(() => t?.close());

  const answer = (r: { status: number; body: unknown }) => [r.status, r.body];
  const from = (p: Person) => ({ headers: { 'x-forwarded-for': `198.51.100.${parseInt(p.user.id.slice(0, 2), 16) % 250}` } });
  const login = (p: Person, extra: Record<string, unknown> = {}) => new Client(t.api).post('/auth/login', { email: p.email, password: p.password, ...extra }, from(p));

  /** A person with it on: answers the secret and the recovery codes. */
  async function turnedOn(name: string) {
    const p = await registerPerson(t, name);
    const { secret, otpauthUrl } = await expectStatus(p.client.post<{ secret: string; otpauthUrl: string }>('/auth/totp/setup'), 200);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const { recoveryCodes } = await expectStatus(p.client.post<{ recoveryCodes: string[] }>('/auth/totp/enable', { code: codeAt(secret, clock.now()) }), 200);
    return { p, secret, recoveryCodes };
  }

  it('sets up, refuses a wrong code, turns on with ten recovery codes and shows user.totp', async () => {
    const p = await registerPerson(t, 'Tia');
    expect(answer(await p.client.post('/auth/totp/enable', { code: '123456' }))).toEqual([409, { error: 'Start the set-up first.' }]);
    const first = await expectStatus(p.client.post<{ secret: string }>('/auth/totp/setup'), 200);
    // Again: a new pending secret replaces the first; the first's code no longer turns it on.
    const { secret } = await expectStatus(p.client.post<{ secret: string }>('/auth/totp/setup'), 200);
    expect(secret).not.toBe(first.secret);
    expect(answer(await p.client.post('/auth/totp/enable', { code: codeAt(first.secret, clock.now()) }))).toEqual([400, WRONG_CODE]);
    expect((await expectStatus(p.client.get<{ user: { totp: boolean } }>('/auth/me'), 200)).user.totp).toBe(false);
    const on = await expectStatus(p.client.post<{ recoveryCodes: string[] }>('/auth/totp/enable', { code: codeAt(secret, clock.now()) }), 200);
    expect(on.recoveryCodes).toHaveLength(10);
    expect(new Set(on.recoveryCodes).size).toBe(10);
    expect((await expectStatus(p.client.get<{ user: { totp: boolean } }>('/auth/me'), 200)).user.totp).toBe(true);
    expect(answer(await p.client.post('/auth/totp/setup'))).toEqual([409, { error: 'Two-step sign-in is on already.' }]);
    // Stored as digests only.
    const { rows } = await t.sql.query<{ digest: string }>('SELECT digest FROM recovery_codes WHERE user_id = $1', [p.user.id]);
    expect(rows).toHaveLength(10);
    for (const code of on.recoveryCodes) expect(rows.map((r) => r.digest)).not.toContain(code);
  });

  it('signs in only with a code: missing says needsCode, wrong is refused, the enabling code and a replay are refused', async () => {
    const { p, secret } = await turnedOn('Ugo');
    expect(answer(await login(p))).toEqual([401, NEEDS_CODE]);
    expect(answer(await login(p, { code: '000000' }))).toEqual([401, WRONG_CODE]);
    // The code that turned it on counts as used.
    expect(answer(await login(p, { code: codeAt(secret, clock.now()) }))).toEqual([401, WRONG_CODE]);
    clock.steps(1);
    const ok = await login(p, { code: codeAt(secret, clock.now()) });
    expect(ok.status).toBe(200);
    expect((ok.body as { user: { totp: boolean } }).user.totp).toBe(true);
    // No replay within the window.
    expect(answer(await login(p, { code: codeAt(secret, clock.now()) }))).toEqual([401, WRONG_CODE]);
  });

  it('takes one step of drift either way, not two', async () => {
    const { p, secret } = await turnedOn('Vic');
    clock.steps(3);
    const at = clock.now().getTime();
    expect(answer(await login(p, { code: codeAt(secret, new Date(at - 60_000)) }))).toEqual([401, WRONG_CODE]);
    expect((await login(p, { code: codeAt(secret, new Date(at - 30_000)) })).status).toBe(200);
    expect((await login(p, { code: codeAt(secret, new Date(at + 30_000)) })).status).toBe(200);
    clock.steps(3);
    expect(answer(await login(p, { code: codeAt(secret, new Date(clock.now().getTime() + 60_000)) }))).toEqual([401, WRONG_CODE]);
  });

  it('lets a recovery code stand in for a code once, and says so in the security log', async () => {
    const { p, recoveryCodes } = await turnedOn('Wes');
    const again = new Client(t.api);
    expect((await again.post('/auth/login', { email: p.email, password: p.password, code: recoveryCodes[3].toUpperCase() }, from(p))).status).toBe(200);
    expect(answer(await login(p, { code: recoveryCodes[3] }))).toEqual([401, WRONG_CODE]);
    const log = await expectStatus(again.get<{ events: { kind: string }[] }>('/auth/me/security'), 200);
    expect(log.events.slice(0, 3).map((e) => e.kind)).toEqual(['sign_in_failed', 'recovery_code_used', 'signed_in']);
    expect(log.events.map((e) => e.kind)).toContain('totp_on');
  });

  it('counts missing and wrong codes as failed tries of the login throttle', async () => {
    const { p } = await turnedOn('Xan');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login(p, i % 2 ? { code: '111111' } : {})).status);
    expect(statuses).toContain(429);
  });

  it('turns off with the password in use and a code; refuses a wrong password or code with the decided sentences', async () => {
    const { p, secret } = await turnedOn('Yul');
    clock.steps(1);
    expect(answer(await p.client.post('/auth/totp/disable', { password: 'not it at all', code: codeAt(secret, clock.now()) }))).toEqual([403, { error: 'That is not the password you use now.' }]);
    expect(answer(await p.client.post('/auth/totp/disable', { password: p.password, code: '000000' }))).toEqual([400, WRONG_CODE]);
    await expectStatus(p.client.post('/auth/totp/disable', { password: p.password, code: codeAt(secret, clock.now()) }), 200);
    expect((await expectStatus(p.client.get<{ user: { totp: boolean } }>('/auth/me'), 200)).user.totp).toBe(false);
    expect((await login(p)).status).toBe(200);
    const { rows } = await t.sql.query('SELECT 1 FROM recovery_codes WHERE user_id = $1', [p.user.id]);
    expect(rows).toHaveLength(0);
  });

  it('is for a signed-in person: no session, no set-up', async () => {
    expect((await new Client(t.api).post('/auth/totp/setup')).status).toBe(401);
  });
});
