import { createHash } from 'node:crypto';
import {
  addMember, Answer, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp, uniqueEmail,
} from '../support/test-app';

const AVATAR_COLORS = [
  '#e0574d', '#d1913a', '#4f8a5b', '#3fb0c8', '#4b8fbe', '#6d5bd0',
  '#c2557a', '#b6763f', '#2f9e7a', '#7a8a2f', '#3d7fc1',
];

const SIGN_IN_FIRST = 'Sign in first, or send an agent token.';
const LOGIN_FAILED = 'That email and password do not match.';
const SIGNUP_CLOSED = 'This board is not taking new accounts. Ask the owner to add you.';
const PASSWORD_SHORT = 'The password must have at least 8 characters.';
const DEAD_LINK = 'This link does not work any more. Ask the owner of your project for a new one.';
const CROSS_SITE = 'Cross-site requests are refused.';
const BAD_COLOR = 'Pick one of the colours on offer.';
const BAD_EMOJI = 'A face is one emoji, or null for your initials.';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const setCookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie');

/** A client that sends this session id as its cookie (a copy of another client's, say). */
function clientWithCookie(api: string, cookie: string | undefined): Client {
  const c = new Client(api);
  c.cookie = cookie;
  return c;
}

describe('authentication routes', () => {
  let t: TestApp;
  let anon: Client;
  let origin: string;

  beforeAll(async () => {
    t = await startTestApp();
    anon = new Client(t.api);
    origin = new URL(t.api).origin;
  });
  afterAll(() => t.close());
  // Every request here comes from 127.0.0.1: forget failures so the throttle stays out of these tests.
  beforeEach(() => t.sql.query('DELETE FROM throttle_failures'));

  describe('POST /api/auth/register', () => {
    it('answers 201 with the user and signs the caller in with an HttpOnly, Lax, Path=/ cookie (not Secure outside production)', async () => {
      const client = new Client(t.api);
      const email = uniqueEmail('reg');
      const res = await client.post('/auth/register', { email, name: 'Robin', password: 'long enough' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email, name: 'Robin', color: expect.any(String), emoji: null, mailNotifications: true, totp: false },
      });
      expect(AVATAR_COLORS).toContain(res.body.user.color);
      const cookie = setCookieOf(res)!;
      expect(cookie).toMatch(/^service_session=[^;]+;/);
      const attributes = cookie.split(';').map((s) => s.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      expect(attributes).not.toContain('secure');
      // Thirty days, so the browser keeps it past closing.
      expect(attributes).toContain('max-age=2592000');
      const me = await client.get('/auth/me');
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ user: res.body.user });
    });

    it('trims the name, trims and lower-cases the email', async () => {
      const email = uniqueEmail('mixed');
      const res = await anon.post('/auth/register', { email: `  ${email.toUpperCase()}  `, name: '  Sam Sample  ', password: 'long enough' });
      expect(res.status).toBe(201);
      expect(res.body.user.email).toBe(email.toLowerCase());
      expect(res.body.user.name).toBe('Sam Sample');
    });

    it('gives every new account one of the eleven colours, spread over the palette', async () => {
      const colours = new Set<string>();
      for (let i = 0; i < 24; i++) {
        const res = await anon.post('/auth/register', { email: uniqueEmail('hue'), name: 'Hue', password: 'long enough' });
        expect(res.status).toBe(201);
        expect(AVATAR_COLORS).toContain(res.body.user.color);
        colours.add(res.body.user.color);
      }
      expect(colours.size).toBeGreaterThan(3);
    });

    it('never reuses a session id the client sent', async () => {
      const client = clientWithCookie(t.api, 'chosen-by-attacker');
      const res = await client.post('/auth/register', { email: uniqueEmail(), name: 'Fix', password: 'long enough' });
      expect(res.status).toBe(201);
      expect(client.cookie).toBeDefined();
      expect(client.cookie).not.toBe('chosen-by-attacker');
      expect((await clientWithCookie(t.api, 'chosen-by-attacker').get('/auth/me')).status).toBe(401);
    });

    it('accepts a password of eight spaces and does not trim it', async () => {
      const email = uniqueEmail('spaces');
      const res = await anon.post('/auth/register', { email, name: 'Space', password: '        ' });
      expect(res.status).toBe(201);
      expect((await anon.post('/auth/login', { email, password: '        ' })).status).toBe(200);
      const trimmed = await anon.post('/auth/login', { email, password: '' });
      expect(trimmed.status).toBe(401);
      expect(trimmed.body).toEqual({ error: LOGIN_FAILED });
    });

    it('keeps surrounding spaces of a password as part of it', async () => {
      const email = uniqueEmail('padded');
      expect((await anon.post('/auth/register', { email, name: 'Pad', password: '  padded pw  ' })).status).toBe(201);
      expect((await anon.post('/auth/login', { email, password: 'padded pw' })).status).toBe(401);
      expect((await anon.post('/auth/login', { email, password: '  padded pw  ' })).status).toBe(200);
    });

    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['a missing email', { name: 'A', password: 'long enough' }, 'Email cannot be empty.'],
      ['a null email', { email: null, name: 'A', password: 'long enough' }, 'Email cannot be empty.'],
      ['an empty email', { email: '', name: 'A', password: 'long enough' }, 'Email cannot be empty.'],
      ['a blank email', { email: '   ', name: 'A', password: 'long enough' }, 'Email cannot be empty.'],
      ['a numeric email', { email: 42, name: 'A', password: 'long enough' }, 'Email must be text.'],
      ['an array email', { email: ['a@b.co'], name: 'A', password: 'long enough' }, 'Email must be text.'],
      ['a 201-character email', { email: 'a'.repeat(189) + '@example.com', name: 'A', password: 'long enough' }, 'Email is too long (max 200 characters).'],
      ['an email without @', { email: 'nobody.example.com', name: 'A', password: 'long enough' }, 'That email address does not look correct.'],
      ['an email without a dot in the domain', { email: 'a@localhost', name: 'A', password: 'long enough' }, 'That email address does not look correct.'],
      ['an email with a space', { email: 'a b@example.com', name: 'A', password: 'long enough' }, 'That email address does not look correct.'],
      ['a missing name', { email: 'n1@example.com', password: 'long enough' }, 'Name cannot be empty.'],
      ['a blank name', { email: 'n2@example.com', name: '   ', password: 'long enough' }, 'Name cannot be empty.'],
      ['a numeric name', { email: 'n3@example.com', name: 7, password: 'long enough' }, 'Name must be text.'],
      ['an 81-character name', { email: 'n4@example.com', name: 'x'.repeat(81), password: 'long enough' }, 'Name is too long (max 80 characters).'],
      ['a missing password', { email: 'p1@example.com', name: 'A' }, PASSWORD_SHORT],
      ['a 7-character password', { email: 'p2@example.com', name: 'A', password: 'seven77' }, PASSWORD_SHORT],
      ['a numeric password', { email: 'p3@example.com', name: 'A', password: 12345678 }, PASSWORD_SHORT],
    ];
    it.each(refusals)('refuses %s with 400 and creates nothing', async (_label, body, message) => {
      // Storage itself: no route counts the accounts.
      const before = (await t.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n;
      const client = new Client(t.api);
      const res = await client.post('/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
      expect(setCookieOf(res)).toBeNull();
      expect((await t.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
    });

    it('accepts a 200-character email and an 80-character name', async () => {
      const email = `${'e'.repeat(185)}-${Date.now().toString().slice(-7)}@ex.com`;
      expect(email.length).toBe(200);
      const res = await anon.post('/auth/register', { email, name: 'n'.repeat(80), password: 'long enough' });
      expect(res.status).toBe(201);
      expect(res.body.user.name).toBe('n'.repeat(80));
    });

    it('refuses a body that is not JSON', async () => {
      const res = await anon.post('/auth/register', undefined, { raw: '{"email": ' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The request body must be JSON.' });
    });

    it('answers 409 for an email already in use, whatever its case', async () => {
      const person = await registerPerson(t, 'First');
      for (const email of [person.email, person.email.toUpperCase(), `  ${person.email} `]) {
        const res = await anon.post('/auth/register', { email, name: 'Second', password: 'another pw' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'An account with that email already exists.' });
      }
      // The first account keeps its password.
      expect((await anon.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: 'another pw' })).status).toBe(401);
    });
  });

  describe('POST /api/auth/login', () => {
    let person: Person;
    beforeAll(async () => {
      person = await registerPerson(t, 'Logan');
    });

    it('answers 200 with the user and a fresh cookie, different from the one the client sent', async () => {
      const client = clientWithCookie(t.api, person.client.cookie);
      const res = await client.post('/auth/login', { email: person.email, password: person.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: person.user });
      expect(setCookieOf(res)).toMatch(/^service_session=[^;]+;/);
      expect(client.cookie).toBeDefined();
      expect(client.cookie).not.toBe(person.client.cookie);
      expect((await client.get('/auth/me')).body).toEqual({ user: person.user });
    });

    it('does not take up a session id chosen by the client', async () => {
      const client = clientWithCookie(t.api, 'fixated-session-id');
      const res = await client.post('/auth/login', { email: person.email, password: person.password });
      expect(res.status).toBe(200);
      expect(client.cookie).not.toBe('fixated-session-id');
      expect((await clientWithCookie(t.api, 'fixated-session-id').get('/auth/me')).status).toBe(401);
    });

    it('ignores case and surrounding space in the email', async () => {
      const res = await anon.post('/auth/login', { email: `  ${person.email.toUpperCase()} `, password: person.password });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(person.user.id);
    });

    it('answers 401 alike for an unknown email and a wrong password, and sets no cookie', async () => {
      for (const body of [
        { email: uniqueEmail('ghost'), password: person.password },
        { email: person.email, password: 'wrong password' },
        { email: person.email, password: person.password.toUpperCase() },
        { email: person.email },
        {},
      ]) {
        const client = new Client(t.api);
        const res = await client.post('/auth/login', body);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: LOGIN_FAILED });
        expect(setCookieOf(res)).toBeNull();
        expect(client.cookie).toBeUndefined();
      }
    });

    it('does not sign in with an agent token alone', async () => {
      const project = await createProject(person.client, 'Login agents');
      const { token } = await createAgent(person.client, project.id);
      const client = new Client(t.api).withToken(token);
      const res = await client.post('/auth/login', {});
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: LOGIN_FAILED });
      expect(setCookieOf(res)).toBeNull();
      expect(client.cookie).toBeUndefined();
    });
  });

  describe('POST /api/auth/logout', () => {
    it('answers { ok: true }, clears the cookie and ends the session', async () => {
      const person = await registerPerson(t, 'Leaving');
      const oldCookie = person.client.cookie!;
      const res = await person.client.post('/auth/logout');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const cookie = setCookieOf(res)!;
      expect(cookie).toMatch(/^service_session=;/);
      expect(cookie.toLowerCase()).toMatch(/max-age=0|expires=thu, 01 jan 1970/);
      expect(cookie.toLowerCase()).toContain('path=/');
      expect(person.client.cookie).toBeUndefined();
      const replay = await clientWithCookie(t.api, oldCookie).get('/auth/me');
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ error: SIGN_IN_FIRST });
      // Storage itself: the replay's 401 could also come from a kept row; the row must be gone.
      const rows = await t.sql.query('SELECT 1 FROM sessions WHERE digest = $1', [sha256(oldCookie)]);
      expect(rows.rowCount).toBe(0);
    });

    it('ends only the session it was sent with', async () => {
      const person = await registerPerson(t, 'Two tabs');
      const other = new Client(t.api);
      expect((await other.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      expect((await person.client.post('/auth/logout')).status).toBe(200);
      expect((await other.get('/auth/me')).status).toBe(200);
    });

    it('succeeds without a cookie, and with an unknown one', async () => {
      const res = await new Client(t.api).post('/auth/logout');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const unknown = await clientWithCookie(t.api, 'no-such-session').post('/auth/logout');
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ ok: true });
    });
  });

  describe('GET /api/auth/me', () => {
    let person: Person;
    let agentToken: string;
    beforeAll(async () => {
      person = await registerPerson(t, 'Mia');
      const project = await createProject(person.client, 'Me project');
      agentToken = (await createAgent(person.client, project.id)).token;
    });

    it('answers the signed-in person', async () => {
      const res = await person.client.get('/auth/me');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: person.user });
    });

    it('answers 401 without a cookie and with an unknown one', async () => {
      for (const client of [new Client(t.api), clientWithCookie(t.api, 'not-a-session')]) {
        const res = await client.get('/auth/me');
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: SIGN_IN_FIRST });
      }
    });

    it('ignores an agent token: alone it is 401 Sign in first', async () => {
      const res = await new Client(t.api).withToken(agentToken).get('/auth/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: SIGN_IN_FIRST });
    });

    it('ignores an agent token sent beside a cookie and answers the person', async () => {
      const client = clientWithCookie(t.api, person.client.cookie);
      client.token = agentToken;
      const res = await client.get('/auth/me');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: person.user });
    });

    it('ignores an invalid svc_ bearer beside a valid cookie', async () => {
      const res = await person.client.get('/auth/me', { headers: { authorization: 'Bearer svc_revoked-or-made-up' } });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(person.user.id);
    });

    it('lets a bearer value without the svc_ prefix pass beside a valid cookie', async () => {
      const res = await person.client.get('/auth/me', { headers: { authorization: 'Bearer proxy-token-123' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: person.user });
    });
  });

  describe('PATCH /api/auth/me', () => {
    let person: Person;
    beforeEach(async () => {
      person = await registerPerson(t, 'Pat');
    });

    it('changes the name (trimmed) and keeps it', async () => {
      const res = await person.client.patch('/auth/me', { name: '  Patricia  ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: { ...person.user, name: 'Patricia' } });
      expect((await person.client.get('/auth/me')).body.user.name).toBe('Patricia');
    });

    it('changes nothing for an empty body', async () => {
      const res = await person.client.patch('/auth/me', {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: person.user });
    });

    it('refuses names that are empty, not text or too long', async () => {
      for (const [name, message] of [
        ['', 'Name cannot be empty.'],
        ['   ', 'Name cannot be empty.'],
        [null, 'Name cannot be empty.'],
        [12, 'Name must be text.'],
        ['y'.repeat(81), 'Name is too long (max 80 characters).'],
      ] as const) {
        const res = await person.client.patch('/auth/me', { name });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message });
      }
      expect((await person.client.get('/auth/me')).body.user.name).toBe('Pat');
      expect((await person.client.patch('/auth/me', { name: 'z'.repeat(80) })).status).toBe(200);
    });

    it('takes each of the eleven colours', async () => {
      for (const color of AVATAR_COLORS) {
        const res = await person.client.patch('/auth/me', { color });
        expect(res.status).toBe(200);
        expect(res.body.user.color).toBe(color);
      }
    });

    it('takes an upper-case spelling of a colour on offer', async () => {
      const color = AVATAR_COLORS.find((c) => c !== person.user.color)!;
      const res = await person.client.patch('/auth/me', { color: color.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.user.color).toBe(color);
      expect((await person.client.get('/auth/me')).body.user.color).toBe(color);
    });

    it('refuses the grey and every other colour', async () => {
      for (const color of ['#8b8f98', '#8B8F98', '#000000', '#fff', 'red', '#e0574']) {
        const res = await person.client.patch('/auth/me', { color });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: BAD_COLOR });
      }
      expect((await person.client.get('/auth/me')).body.user.color).toBe(person.user.color);
    });

    it('refuses a colour that is not text', async () => {
      for (const color of [5, true, ['#e0574d']]) {
        const res = await person.client.patch('/auth/me', { color });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Color must be text.' });
      }
    });

    it.each([
      ['a single emoji', '😀'],
      ['a ZWJ family', '👨‍👩‍👧'],
      ['a skin-tone emoji', '👍🏽'],
      ['a flag', '🇫🇷'],
      ['a tag-sequence flag', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
      ['a ZWJ flag', '🏳️‍🌈'],
      ['a heart with a variation selector', '❤️'],
      ['a keycap', '#️⃣'],
    ])('accepts %s as a face', async (_label, emoji) => {
      const res = await person.client.patch('/auth/me', { emoji });
      expect(res.status).toBe(200);
      expect(res.body.user.emoji).toBe(emoji);
      expect((await person.client.get('/auth/me')).body.user.emoji).toBe(emoji);
    });

    it.each([
      ['letters', 'ab'],
      ['one letter', 'A'],
      ['two emoji', '😀😀'],
      ['two flags', '🇫🇷🇩🇪'],
      ['an emoji and a letter', '😀a'],
      ['an empty string', ''],
      ['only spaces', '   '],
      ['a number', 7],
      ['a boolean', true],
    ])('refuses %s as a face', async (_label, emoji) => {
      const res = await person.client.patch('/auth/me', { emoji });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BAD_EMOJI });
      expect((await person.client.get('/auth/me')).body.user.emoji).toBeNull();
    });

    it('trims the face like every string field', async () => {
      const res = await person.client.patch('/auth/me', { emoji: ' 🐙 ' });
      expect(res.status).toBe(200);
      expect(res.body.user.emoji).toBe('🐙');
    });

    it('clears the face with null', async () => {
      expect((await person.client.patch('/auth/me', { emoji: '🦊' })).body.user.emoji).toBe('🦊');
      const res = await person.client.patch('/auth/me', { emoji: null });
      expect(res.status).toBe(200);
      expect(res.body.user.emoji).toBeNull();
      expect((await person.client.get('/auth/me')).body.user.emoji).toBeNull();
    });

    it('changes nothing when one field of several is refused', async () => {
      const res = await person.client.patch('/auth/me', { name: 'Changed', emoji: 'xx' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BAD_EMOJI });
      expect((await person.client.get('/auth/me')).body).toEqual({ user: person.user });
    });

    it('needs a signed-in person', async () => {
      const res = await new Client(t.api).patch('/auth/me', { name: 'Nobody' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: SIGN_IN_FIRST });
    });
  });

  describe('POST /api/auth/password', () => {
    let person: Person;
    beforeEach(async () => {
      person = await registerPerson(t, 'Pass', uniqueEmail('pw'), 'old password');
    });

    it('asks for both passwords', async () => {
      for (const body of [{}, { current: 'old password' }, { next: 'new password' }, { current: '', next: 'new password' },
        { current: 'old password', next: '' }, { current: 1, next: 'new password' }, { current: 'old password', next: 12345678 }, { next: 'short' }]) {
        const res = await person.client.post('/auth/password', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Send the password you use now and the one you want.' });
      }
    });

    it('refuses a new password under eight characters', async () => {
      const res = await person.client.post('/auth/password', { current: 'old password', next: 'short' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The new password must have at least 8 characters.' });
      expect((await anon.post('/auth/login', { email: person.email, password: 'old password' })).status).toBe(200);
    });

    it('answers 403 for a wrong current password and changes nothing', async () => {
      const res = await person.client.post('/auth/password', { current: 'not my password', next: 'new password' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'That is not the password you use now.' });
      expect((await anon.post('/auth/login', { email: person.email, password: 'old password' })).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: 'new password' })).status).toBe(401);
    });

    it('changes the password, ends every other session and keeps this one', async () => {
      const other = new Client(t.api);
      expect((await other.post('/auth/login', { email: person.email, password: 'old password' })).status).toBe(200);
      const res = await person.client.post('/auth/password', { current: 'old password', next: 'new password' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const gone = await other.get('/auth/me');
      expect(gone.status).toBe(401);
      expect(gone.body).toEqual({ error: SIGN_IN_FIRST });
      expect((await person.client.get('/auth/me')).status).toBe(200);
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 0 });
      const old = await anon.post('/auth/login', { email: person.email, password: 'old password' });
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ error: LOGIN_FAILED });
      expect((await anon.post('/auth/login', { email: person.email, password: 'new password' })).status).toBe(200);
    });

    it('leaves other people signed in', async () => {
      const bystander = await registerPerson(t, 'Bystander');
      expect((await person.client.post('/auth/password', { current: 'old password', next: 'new password' })).status).toBe(200);
      expect((await bystander.client.get('/auth/me')).status).toBe(200);
    });

    it('needs a signed-in person', async () => {
      const res = await new Client(t.api).post('/auth/password', { current: 'old password', next: 'new password' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: SIGN_IN_FIRST });
    });
  });

  describe('GET and DELETE /api/auth/sessions', () => {
    it('counts the other live sessions and ends them all but this one', async () => {
      const person = await registerPerson(t, 'Sessions');
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 0 });
      const others: Client[] = [];
      for (let i = 0; i < 3; i++) {
        const c = new Client(t.api);
        expect((await c.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
        others.push(c);
      }
      const bystander = await registerPerson(t, 'Bystander');
      let res: Answer = await person.client.get('/auth/sessions');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ others: 3 });
      expect((await others[0].get('/auth/sessions')).body).toEqual({ others: 3 });

      // An expired session is not counted.
      // A forced clock: thirty days cannot pass in a test.
      await t.sql.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE digest = $1`, [sha256(others[2].cookie!)]);
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 2 });

      res = await person.client.delete('/auth/sessions');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      for (const c of others) {
        const gone = await c.get('/auth/me');
        expect(gone.status).toBe(401);
        expect(gone.body).toEqual({ error: SIGN_IN_FIRST });
      }
      expect((await person.client.get('/auth/me')).status).toBe(200);
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 0 });
      expect((await bystander.client.get('/auth/me')).status).toBe(200);
      // Storage itself: the expired session, which no route counts, must be gone too.
      const rows = await t.sql.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [person.user.id]);
      expect(rows.rows[0].n).toBe(1);
    });

    it('needs a signed-in person', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await new Client(t.api).request(method, '/auth/sessions');
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: SIGN_IN_FIRST });
      }
    });
  });

  describe('sessions', () => {
    it('checks expiry on every request', async () => {
      const person = await registerPerson(t, 'Expiring');
      expect((await person.client.get('/auth/me')).status).toBe(200);
      // A forced clock: thirty days cannot pass in a test.
      await t.sql.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [person.user.id]);
      const res = await person.client.get('/auth/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: SIGN_IN_FIRST });
      const list = await person.client.get('/projects');
      expect(list.status).toBe(401);
      expect(list.body).toEqual({ error: SIGN_IN_FIRST });
    });

    it('lives for thirty days', async () => {
      const person = await registerPerson(t, 'Thirty');
      // Storage itself: the lifetime the server holds a session to, which the cookie's own expiry does not prove.
      const row = (await t.sql.query('SELECT expires_at FROM sessions WHERE digest = $1', [sha256(person.client.cookie!)])).rows[0];
      const days = (new Date(row.expires_at).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.99);
      expect(days).toBeLessThanOrEqual(30.001);
    });

    it('stores the session id only as a digest', async () => {
      const person = await registerPerson(t, 'Digest');
      const cookie = person.client.cookie!;
      expect(cookie.length).toBeGreaterThanOrEqual(32);
      // Storage itself: what the table keeps of a session id.
      const digests = (await t.sql.query('SELECT digest FROM sessions')).rows.map((r) => r.digest);
      expect(digests).not.toContain(cookie);
      expect(digests.some((d: string) => d.includes(cookie))).toBe(false);
      const whole = (await t.sql.query('SELECT row_to_json(s)::text AS row FROM sessions s')).rows.map((r) => r.row as string);
      expect(whole.some((r) => r.includes(cookie))).toBe(false);
      expect(digests).toContain(sha256(cookie));
    });

    it('gives a person one session per sign-in, each with its own id', async () => {
      const person = await registerPerson(t, 'Many');
      const second = new Client(t.api);
      await second.post('/auth/login', { email: person.email, password: person.password });
      expect(second.cookie).not.toBe(person.client.cookie);
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 1 });
      expect((await second.get('/auth/sessions')).body).toEqual({ others: 1 });
    });
  });

  describe('cross-site writes', () => {
    let person: Person;
    beforeAll(async () => {
      person = await registerPerson(t, 'Origin');
    });

    it('refuses a cookie-signed PATCH /api/auth/me from another origin and writes nothing', async () => {
      const res = await person.client.patch('/auth/me', { name: 'Hijacked' }, { headers: { origin: 'http://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE });
      expect((await person.client.get('/auth/me')).body.user.name).toBe('Origin');
    });

    it('refuses a cookie-signed POST /api/projects from another origin and creates nothing', async () => {
      const before = (await person.client.get('/projects')).body.projects.length;
      const res = await person.client.post('/projects', { name: 'Evil project' }, { headers: { origin: 'http://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE });
      expect((await person.client.get('/projects')).body.projects.length).toBe(before);
    });

    it('refuses cookie-signed session and password writes from another origin', async () => {
      const other = new Client(t.api);
      await other.post('/auth/login', { email: person.email, password: person.password });
      const del = await person.client.delete('/auth/sessions', undefined, { headers: { origin: 'https://evil.example' } });
      expect(del.status).toBe(403);
      expect(del.body).toEqual({ error: CROSS_SITE });
      expect((await other.get('/auth/me')).status).toBe(200);
      const pw = await person.client.post('/auth/password', { current: person.password, next: 'evil password' }, { headers: { origin: 'https://evil.example' } });
      expect(pw.status).toBe(403);
      expect(pw.body).toEqual({ error: CROSS_SITE });
      expect((await anon.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('refuses an origin that differs only in port or scheme, and the opaque origin null', async () => {
      const port = Number(new URL(origin).port);
      for (const bad of [`http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, `http://localhost:${port}`, 'null']) {
        const res = await person.client.patch('/auth/me', { name: 'Nope' }, { headers: { origin: bad } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: CROSS_SITE });
      }
      expect((await person.client.get('/auth/me')).body.user.name).toBe('Origin');
    });

    it("lets the app's own origin through", async () => {
      const res = await person.client.patch('/auth/me', { emoji: '🌍' }, { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.body.user.emoji).toBe('🌍');
      const created = await person.client.post('/projects', { name: 'Same origin' }, { headers: { origin } });
      expect(created.status).toBe(201);
    });

    it('checks a cookie write even beside a bearer value without the svc_ prefix', async () => {
      const res = await person.client.patch('/auth/me', { name: 'Hijacked' }, {
        headers: { origin: 'http://evil.example', authorization: 'Bearer proxy-token-123' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE });
      expect((await person.client.get('/auth/me')).body.user.name).toBe('Origin');
    });

    it('does not check reads', async () => {
      const res = await person.client.get('/auth/me', { headers: { origin: 'http://evil.example' } });
      expect(res.status).toBe(200);
    });

    it('does not check a write signed by an agent token', async () => {
      const project = await createProject(person.client, 'Agent origin');
      const { token } = await createAgent(person.client, project.id);
      const agent = new Client(t.api).withToken(token);
      // The route is human only: reaching the gate shows the origin was not checked.
      const res = await agent.post('/projects', { name: 'From agent' }, { headers: { origin: 'http://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only a person can do this.' });
    });
  });

  describe('POST /api/auth/reset', () => {
    let owner: Person;
    let projectId: string;
    beforeAll(async () => {
      owner = await registerPerson(t, 'Owner');
      projectId = (await createProject(owner.client, 'Reset project')).id;
    });

    async function memberWithLink(): Promise<{ person: Person; token: string }> {
      const person = await registerPerson(t, 'Forgetful');
      await addMember(owner.client, projectId, person);
      return { person, token: await makeLink(person) };
    }

    async function makeLink(person: Person): Promise<string> {
      const res = await owner.client.post(`/projects/${projectId}/members/${person.user.id}/reset`);
      expect(res.status).toBe(200);
      return res.body.token;
    }

    it('makes a link { token, url: null, expiresAt } for 24 hours without SERVICE_URL', async () => {
      const person = await registerPerson(t, 'Linked');
      await addMember(owner.client, projectId, person);
      const res = await owner.client.post(`/projects/${projectId}/members/${person.user.id}/reset`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.stringMatching(/^svcr_[A-Za-z0-9_-]{20,}$/), url: null, expiresAt: expect.any(String) });
      const hours = (new Date(res.body.expiresAt).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24.01);
      // Storage itself: what the table keeps of a reset token.
      const digests = (await t.sql.query('SELECT digest FROM reset_tokens')).rows.map((r) => r.digest);
      expect(digests).not.toContain(res.body.token);
      expect(digests).toContain(sha256(res.body.token));
    });

    it('sets the new password, signs the caller in and ends every other session of the account', async () => {
      const { person, token } = await memberWithLink();
      const second = new Client(t.api);
      expect((await second.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      const bystander = await registerPerson(t, 'Bystander');

      const caller = new Client(t.api);
      const res = await caller.post('/auth/reset', { token, password: 'fresh password' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const cookie = setCookieOf(res)!;
      expect(cookie).toMatch(/^service_session=[^;]+;/);
      expect(cookie.toLowerCase()).toContain('httponly');
      expect((await caller.get('/auth/me')).body).toEqual({ user: person.user });
      expect((await caller.get('/auth/sessions')).body).toEqual({ others: 0 });

      for (const c of [person.client, second]) {
        const gone = await c.get('/auth/me');
        expect(gone.status).toBe(401);
        expect(gone.body).toEqual({ error: SIGN_IN_FIRST });
      }
      expect((await bystander.client.get('/auth/me')).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: 'fresh password' })).status).toBe(200);
      const old = await anon.post('/auth/login', { email: person.email, password: person.password });
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ error: LOGIN_FAILED });
    });

    it('works once: the same token again is a dead link', async () => {
      const { person, token } = await memberWithLink();
      expect((await new Client(t.api).post('/auth/reset', { token, password: 'first new pw' })).status).toBe(200);
      const again = new Client(t.api);
      const res = await again.post('/auth/reset', { token, password: 'second new pw' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: DEAD_LINK });
      expect(setCookieOf(res)).toBeNull();
      expect((await anon.post('/auth/login', { email: person.email, password: 'first new pw' })).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: 'second new pw' })).status).toBe(401);
    });

    it('voids an older link when a newer one is made', async () => {
      const { person, token: older } = await memberWithLink();
      const newer = await makeLink(person);
      expect(newer).not.toBe(older);
      const res = await anon.post('/auth/reset', { token: older, password: 'from older link' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: DEAD_LINK });
      expect((await new Client(t.api).post('/auth/reset', { token: newer, password: 'from newer link' })).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: 'from newer link' })).status).toBe(200);
    });

    it('refuses an expired link', async () => {
      const { person, token } = await memberWithLink();
      // A forced clock: a day cannot pass in a test.
      await t.sql.query(`UPDATE reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [person.user.id]);
      const res = await anon.post('/auth/reset', { token, password: 'too late pw' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: DEAD_LINK });
      expect((await person.client.get('/auth/me')).status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('refuses tokens that were never real, alike', async () => {
      for (const body of [{ token: 'svcr_made-up-token', password: 'whatever pw' }, { token: '', password: 'whatever pw' },
        { password: 'whatever pw' }, { token: 42, password: 'whatever pw' }, { token: 'svc_not-a-reset-token', password: 'whatever pw' }]) {
        const res = await anon.post('/auth/reset', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: DEAD_LINK });
      }
    });

    it('refuses a short or missing password and leaves the link usable', async () => {
      const { person, token } = await memberWithLink();
      for (const password of ['short', undefined, 12345678]) {
        const res = await anon.post('/auth/reset', { token, password });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: PASSWORD_SHORT });
      }
      expect((await person.client.get('/auth/me')).status).toBe(200);
      const res = await new Client(t.api).post('/auth/reset', { token, password: '        ' });
      expect(res.status).toBe(200);
      expect((await anon.post('/auth/login', { email: person.email, password: '        ' })).status).toBe(200);
    });

    it('ignores the caller’s own cookie: it resets the account of the link', async () => {
      const { person, token } = await memberWithLink();
      const caller = clientWithCookie(t.api, owner.client.cookie);
      const res = await caller.post('/auth/reset', { token, password: 'owner typed it' });
      expect(res.status).toBe(200);
      expect(caller.cookie).not.toBe(owner.client.cookie);
      expect((await caller.get('/auth/me')).body.user.id).toBe(person.user.id);
      expect((await owner.client.get('/auth/me')).body.user.id).toBe(owner.user.id);
    });

    it('makes links for members only', async () => {
      const stranger = await registerPerson(t, 'Stranger');
      const res = await owner.client.post(`/projects/${projectId}/members/${stranger.user.id}/reset`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Member not found.' });
    });
  });
});

describe('authentication in production', () => {
  let dev: TestApp;
  let prod: TestApp;
  beforeAll(async () => {
    [dev, prod] = await Promise.all([startTestApp(), startTestApp({ env: { NODE_ENV: 'production' } })]);
  });
  afterAll(() => Promise.all([dev.close(), prod.close()]));

  it('marks the session cookie Secure on register, login and logout', async () => {
    const email = uniqueEmail('prod');
    const client = new Client(prod.api);
    const reg = await client.post('/auth/register', { email, name: 'Prod', password: 'long enough' });
    expect(reg.status).toBe(201);
    const login = await new Client(prod.api).post('/auth/login', { email, password: 'long enough' });
    expect(login.status).toBe(200);
    const owner = await registerPerson(prod, 'Prod owner');
    const project = await createProject(owner.client, 'Prod project');
    await addMember(owner.client, project.id, { email } as Person);
    const link = await owner.client.post(`/projects/${project.id}/members/${reg.body.user.id}/reset`);
    expect(link.status).toBe(200);
    const reset = await new Client(prod.api).post('/auth/reset', { token: link.body.token, password: 'reset in prod' });
    expect(reset.status).toBe(200);
    const logout = await client.post('/auth/logout');
    for (const res of [reg, login, reset, logout]) {
      const attributes = setCookieOf(res)!.split(';').map((s) => s.trim().toLowerCase());
      expect(attributes).toContain('secure');
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
    }
  });

  it('gives the same email the same colour on every server, whatever its case', async () => {
    for (let i = 0; i < 5; i++) {
      const email = uniqueEmail('same');
      const a = await new Client(dev.api).post('/auth/register', { email, name: 'A', password: 'long enough' });
      const b = await new Client(prod.api).post('/auth/register', { email: email.toUpperCase(), name: 'B', password: 'long enough' });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(AVATAR_COLORS).toContain(a.body.user.color);
      expect(b.body.user.color).toBe(a.body.user.color);
    }
  });
});

describe('sign-up settings', () => {
  let open: TestApp;
  let closed: TestApp;
  let invite: TestApp;
  let owner: Person;
  let projectId: string;

  beforeAll(async () => {
    open = await startTestApp();
    // Three servers on one database: the owner signs up while sign-up is open.
    [closed, invite] = await Promise.all([
      startTestApp({ databaseUrl: open.databaseUrl, env: { SERVICE_SIGNUP: 'closed' } }),
      startTestApp({ databaseUrl: open.databaseUrl, env: { SERVICE_SIGNUP: 'invite' } }),
    ]);
    owner = await registerPerson(open, 'Owner');
    projectId = (await createProject(owner.client, 'Invite project')).id;
  });
  afterAll(async () => {
    await Promise.all([closed.close(), invite.close()]);
    await open.close();
  });
  // Every request here comes from 127.0.0.1: forget failures so the throttle stays out of these tests.
  beforeEach(() => open.sql.query('DELETE FROM throttle_failures'));

  // Storage itself: no route counts the accounts.
  const userCount = async () => (await open.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n as number;

  describe('SERVICE_SIGNUP=closed', () => {
    it('refuses every registration with 403 and creates nothing', async () => {
      const before = await userCount();
      const client = new Client(closed.api);
      const res = await client.post('/auth/register', { email: uniqueEmail(), name: 'Late', password: 'long enough' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SIGNUP_CLOSED });
      expect(setCookieOf(res)).toBeNull();
      expect(await userCount()).toBe(before);
    });

    it('refuses before reading the body: unparsable, empty or invalid bodies get the same 403', async () => {
      for (const raw of ['{"email": ', 'not json', '', '[1,2]', '{"email":"bad"}']) {
        const res = await new Client(closed.api).post('/auth/register', undefined, { raw });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: SIGNUP_CLOSED });
      }
    });

    it('refuses even an email with a pending invite', async () => {
      const email = uniqueEmail('invited-closed');
      expect((await owner.client.post(`/projects/${projectId}/members`, { email })).status).toBe(201);
      const res = await new Client(closed.api).post('/auth/register', { email, name: 'Inv', password: 'long enough' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SIGNUP_CLOSED });
    });

    it('still lets existing accounts sign in', async () => {
      const client = new Client(closed.api);
      const res = await client.post('/auth/login', { email: owner.email, password: owner.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: owner.user });
    });
  });

  describe('SERVICE_SIGNUP=invite', () => {
    it('refuses an email without a pending invite with the closed sign-up 403', async () => {
      const before = await userCount();
      const res = await new Client(invite.api).post('/auth/register', { email: uniqueEmail('uninvited'), name: 'No', password: 'long enough' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SIGNUP_CLOSED });
      expect(await userCount()).toBe(before);
    });

    it('registers an invited email (any case) and makes it a member of the inviting project', async () => {
      const email = uniqueEmail('guest');
      const add = await owner.client.post(`/projects/${projectId}/members`, { email: email.toUpperCase() });
      expect(add.status).toBe(201);
      expect(add.body).toEqual({ invite: { email, createdAt: expect.any(String), mailed: false, signupUrl: null } });

      const client = new Client(invite.api);
      const res = await client.post('/auth/register', { email: `  ${email.replace('guest', 'GUEST')} `, name: 'Guest', password: 'long enough' });
      expect(res.status).toBe(201);
      expect(res.body.user).toEqual({ id: expect.any(String), email, name: 'Guest', color: expect.any(String), emoji: null, mailNotifications: true, totp: false });
      const projects = await client.get('/projects');
      expect(projects.status).toBe(200);
      expect(projects.body.projects).toHaveLength(1);
      expect(projects.body.projects[0]).toMatchObject({ id: projectId, name: 'Invite project', role: 'member' });
      // The invite is used up.
      const board = await owner.client.get(`/projects/${projectId}/board`);
      expect(board.status).toBe(200);
      expect(board.body.invites.map((i) => i.email)).not.toContain(email);
    });

    it('gives the invited role', async () => {
      const email = uniqueEmail('adm');
      expect((await owner.client.post(`/projects/${projectId}/members`, { email, role: 'admin' })).status).toBe(201);
      const client = new Client(invite.api);
      expect((await client.post('/auth/register', { email, name: 'Adm', password: 'long enough' })).status).toBe(201);
      expect((await client.get('/projects')).body.projects.map((p) => [p.id, p.role])).toEqual([[projectId, 'admin']]);
    });

    it('still validates the body of an invited email', async () => {
      const email = uniqueEmail('val');
      expect((await owner.client.post(`/projects/${projectId}/members`, { email })).status).toBe(201);
      const res = await new Client(invite.api).post('/auth/register', { email, name: 'Val', password: 'short' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: PASSWORD_SHORT });
    });

    it('turns invites into memberships on open sign-up too', async () => {
      const email = uniqueEmail('openinv');
      expect((await owner.client.post(`/projects/${projectId}/members`, { email })).status).toBe(201);
      const client = new Client(open.api);
      expect((await client.post('/auth/register', { email, name: 'Open', password: 'long enough' })).status).toBe(201);
      expect((await client.get('/projects')).body.projects.map((p) => p.id)).toEqual([projectId]);
    });
  });
});

describe('with SERVICE_URL set', () => {
  const SERVICE_URL = 'https://board.example.com';
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_URL } });
    owner = await registerPerson(t, 'Owner');
    projectId = (await createProject(owner.client, 'Hosted')).id;
  });
  afterAll(() => t.close());

  it('builds reset links from SERVICE_URL', async () => {
    const person = await registerPerson(t, 'Hosted person');
    await addMember(owner.client, projectId, person);
    const res = await owner.client.post(`/projects/${projectId}/members/${person.user.id}/reset`, undefined, {
      headers: { 'x-forwarded-host': 'attacker.example', origin: SERVICE_URL },
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^svcr_/);
    expect(res.body.url).toBe(`${SERVICE_URL}/reset?token=${res.body.token}`);
    expect((await new Client(t.api).post('/auth/reset', { token: res.body.token, password: 'hosted new pw' })).status).toBe(200);
  });

  it('lets only the SERVICE_URL origin write with a cookie', async () => {
    const ok = await owner.client.patch('/auth/me', { name: 'Hosted owner' }, { headers: { origin: SERVICE_URL } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.name).toBe('Hosted owner');
    const own = new URL(t.api).origin;
    for (const origin of [own, 'http://evil.example', 'http://board.example.com', 'https://board.example.com.evil.example']) {
      const res = await owner.client.patch('/auth/me', { name: 'Changed' }, { headers: { origin } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE });
    }
    expect((await owner.client.get('/auth/me')).body.user.name).toBe('Hosted owner');
  });
});
