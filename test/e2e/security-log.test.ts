import { addMember, Client, createProject, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';
import { expectStatus } from '../support/fixtures';

type Log = { events: { at: string; kind: string; ip: string; userAgent: string }[] };

/** GET /api/auth/me/security (extensions.md § 3.3): what happened to an account, and from where. */
describe('the security log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_TRUST_PROXY: 'true' } });
  });
  afterAll(() => t?.close());

  const logOf = async (client: Client): Promise<Log['events']> => (await expectStatus(client.get<Log>('/auth/me/security'), 200)).events;
  const kinds = async (client: Client) => (await logOf(client)).map((e) => e.kind);

  it('records sign-ins, refused sign-ins, sign-outs, password changes and ended sessions, newest first, with address and user agent', async () => {
    const email = uniqueEmail('log');
    const person = await registerPerson(t, 'Lou', email, 'first password here');
    const other = new Client(t.api);
    const from = (ip: string, agent: string) => ({ headers: { 'x-forwarded-for': ip, 'user-agent': agent } });
    expect((await other.post('/auth/login', { email, password: 'wrong password' }, from('203.0.113.9', 'Guesser/1.0'))).status).toBe(401);
    expect((await other.post('/auth/login', { email, password: 'first password here' }, from('198.51.100.7', 'Laptop/2.0'))).status).toBe(200);
    await expectStatus(person.client.post('/auth/password', { current: 'first password here', next: 'second password here' }), 200);
    await expectStatus(person.client.delete('/auth/sessions'), 200);
    expect(await kinds(person.client)).toEqual(['sessions_ended', 'password_changed', 'signed_in', 'sign_in_failed', 'signed_in']);
    const [, , signIn, failed] = await logOf(person.client);
    expect(failed).toMatchObject({ ip: '203.0.113.9', userAgent: 'Guesser/1.0' });
    expect(signIn).toMatchObject({ ip: '198.51.100.7', userAgent: 'Laptop/2.0' });
    const times = (await logOf(person.client)).map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await expectStatus(person.client.post('/auth/logout'), 200);
    const again = new Client(t.api);
    await expectStatus(again.post('/auth/login', { email, password: 'second password here' }), 200);
    expect((await kinds(again)).slice(0, 2)).toEqual(['signed_in', 'signed_out']);
  });

  it('records a reset by link, and cuts a long user agent to 200 characters', async () => {
    const owner = await registerPerson(t, 'Ola');
    const member = await registerPerson(t, 'Max');
    const project = await createProject(owner.client, 'Resets', 'RES');
    await addMember(owner.client, project.id, member);
    const link = await expectStatus(owner.client.post<{ token: string }>(`/projects/${project.id}/members/${member.user.id}/reset`), 200);
    const stranger = new Client(t.api);
    const ua = `Crafted ${'é'.repeat(300)}`;
    await expectStatus(stranger.post('/auth/reset', { token: link.token, password: 'a brand new password' }, { headers: { 'user-agent': ua } }), 200);
    const [reset] = await logOf(stranger);
    expect(reset.kind).toBe('password_reset');
    expect([...reset.userAgent]).toHaveLength(200);
    expect(reset.userAgent.startsWith('Crafted')).toBe(true);
  });

  it('is one person’s own: another person sees only theirs, and an unknown email logs nothing', async () => {
    const a = await registerPerson(t, 'Ann');
    const b = await registerPerson(t, 'Bob');
    await new Client(t.api).post('/auth/login', { email: a.email, password: 'nope nope nope' });
    await new Client(t.api).post('/auth/login', { email: uniqueEmail('nobody'), password: 'nope nope nope' });
    expect(await kinds(a.client)).toEqual(['sign_in_failed', 'signed_in']);
    expect(await kinds(b.client)).toEqual(['signed_in']);
    const anonymous = await new Client(t.api).get('/auth/me/security');
    expect(anonymous.status).toBe(401);
  });

  it('keeps a person to their newest events: a flood of refused sign-ins does not grow without end', async () => {
    const p = await registerPerson(t, 'Flo');
    // Storage itself: 300 old events planted at once, as a throttled flood would take hours to make.
    await t.sql.query(`INSERT INTO security_events (user_id, at, kind, ip, user_agent)
                       SELECT $1, now() - make_interval(mins => g), 'sign_in_failed', '192.0.2.1', 'Flood' FROM generate_series(1, 300) g`, [p.user.id]);
    await new Client(t.api).post('/auth/login', { email: p.email, password: 'one more wrong one' });
    const { rows } = await t.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM security_events WHERE user_id = $1', [p.user.id]);
    expect(rows[0].n).toBeLessThanOrEqual(201);
    const shown = await logOf(p.client);
    expect(shown).toHaveLength(100);
    expect(shown[0]).toMatchObject({ kind: 'sign_in_failed', userAgent: expect.not.stringMatching(/^Flood$/) });
  });
});
