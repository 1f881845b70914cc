import { DataSource } from 'typeorm';
import { AccountSecurity1764460800000 } from '../../libs/persistence/src/migrations/1764460800000-account-security';
import { expectError } from '../support/fixtures';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';

const BEYOND = 'This person is also in other projects, so only they can reset their password.';
const DEAD_LINK = 'This link does not work any more. Ask the owner of your project for a new one.';
const LOGIN_FAILED = 'That email and password do not match.';
const CROSS_SITE = 'Cross-site requests are refused.';
const BAD_EMAIL = 'That email address does not look correct.';
const TAKEN = 'An account with that email already exists.';
const ALREADY = 'That person is already a member.';

/** Issue 19, points 1, 4 and 5. */
describe('account security', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('member reset links never reach past the caller’s projects', () => {
    it('refuses the takeover: an attacker adds a victim’s account to a project of their own and asks a link', async () => {
      const victim = await registerPerson(t, 'Victim');
      const victimProject = await createProject(victim.client, 'Victim’s own');
      const attacker = await registerPerson(t, 'Attacker');
      const lure = await createProject(attacker.client, 'Lure');
      // An existing account is added at once, without its consent.
      const added = await attacker.client.post(`/projects/${lure.id}/members`, { email: victim.email });
      expect(added.status).toBe(201);
      expect(added.body.member!.id).toBe(victim.user.id);

      const link = await attacker.client.post(`/projects/${lure.id}/members/${victim.user.id}/reset`);
      expectError(link, 403, BEYOND);
      // Storage itself: no route lists the reset links a person has.
      expect((await t.sql.query('SELECT count(*)::int AS n FROM reset_tokens WHERE user_id = $1', [victim.user.id])).rows[0].n).toBe(0);
      // No link: nothing to reset with, a guessed one is dead, and the victim keeps the account.
      const reset = await new Client(t.api).post('/auth/reset', { token: 'svcr_guess', password: 'attacker password' });
      expectError(reset, 400, DEAD_LINK);
      expect((await new Client(t.api).post('/auth/login', { email: victim.email, password: 'attacker password' })).status).toBe(401);
      expect((await victim.client.get('/auth/me')).status).toBe(200);
      expect((await victim.client.get(`/projects/${victimProject.id}/rules`)).status).toBe(200);
      // An admin of the lure is refused alike.
      const helper = await registerPerson(t, 'Helper');
      await addMember(attacker.client, lure.id, helper, 'admin');
      expectError(await helper.client.post(`/projects/${lure.id}/members/${victim.user.id}/reset`), 403, BEYOND);
    });

    it('still makes a link for a person who is only in projects the caller owns or administers, and it works', async () => {
      const owner = await registerPerson(t, 'Owner');
      const first = await createProject(owner.client, 'First');
      const second = await createProject(owner.client, 'Second');
      const admin = await registerPerson(t, 'Admin');
      const third = await createProject(admin.client, 'Third');
      // The person is in the owner's two projects and in a third that the owner administers.
      await addMember(admin.client, third.id, owner, 'admin');
      const person = await registerPerson(t, 'Forgetful');
      for (const p of [first, second]) await addMember(owner.client, p.id, person);
      await addMember(admin.client, third.id, person);

      const link = await owner.client.post(`/projects/${first.id}/members/${person.user.id}/reset`);
      expect(link.status).toBe(200);
      const caller = new Client(t.api);
      const reset = await caller.post('/auth/reset', { token: link.body.token, password: 'brand new password' });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ ok: true });
      expect((await caller.get('/auth/me')).body.user.id).toBe(person.user.id);
      expect((await person.client.get('/auth/me')).status).toBe(401);
    });

    it('refuses once the person is also in one project the caller only belongs to', async () => {
      const owner = await registerPerson(t, 'Owner');
      const mine = await createProject(owner.client, 'Mine');
      const other = await registerPerson(t, 'Other owner');
      const theirs = await createProject(other.client, 'Theirs');
      const person = await registerPerson(t, 'Shared');
      await addMember(owner.client, mine.id, person);
      // The caller is a plain member of that other project: not enough.
      await addMember(other.client, theirs.id, owner);
      await addMember(other.client, theirs.id, person);
      expectError(await owner.client.post(`/projects/${mine.id}/members/${person.user.id}/reset`), 403, BEYOND);
      // Made admin there, the caller may.
      expect((await other.client.patch(`/projects/${theirs.id}/members/${owner.user.id}`, { role: 'admin' })).status).toBe(200);
      expect((await owner.client.post(`/projects/${mine.id}/members/${person.user.id}/reset`)).status).toBe(200);
    });

    it('kills a link whose person joined a project its maker does not manage before it was used', async () => {
      const owner = await registerPerson(t, 'Owner');
      const mine = await createProject(owner.client, 'Early link');
      const person = await registerPerson(t, 'Newcomer');
      await addMember(owner.client, mine.id, person);
      const link = await owner.client.post(`/projects/${mine.id}/members/${person.user.id}/reset`);
      expect(link.status).toBe(200);
      const elsewhere = await registerPerson(t, 'Elsewhere');
      const theirs = await createProject(elsewhere.client, 'Elsewhere');
      await addMember(elsewhere.client, theirs.id, person);
      expectError(await new Client(t.api).post('/auth/reset', { token: link.body.token, password: 'taken over' }), 400, DEAD_LINK);
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('keeps the older rules: an admin gets no link for the owner, nobody for an agent', async () => {
      const owner = await registerPerson(t, 'Owner');
      const p = await createProject(owner.client, 'Rules stand');
      const admin = await registerPerson(t, 'Admin');
      await addMember(owner.client, p.id, admin, 'admin');
      expectError(
        await admin.client.post(`/projects/${p.id}/members/${owner.user.id}/reset`),
        403,
        'Only the owner can make a reset link for an admin or the owner.',
      );
      const agent = await createAgent(owner.client, p.id);
      expectError(
        await owner.client.post(`/projects/${p.id}/members/${agent.agent.id}/reset`),
        400,
        'An agent signs in with a token, so it has no password to reset.',
      );
    });
  });

  describe('cross-site sign-in, sign-up and sign-out', () => {
    const evil = { origin: 'https://evil.example' };

    it('refuses login from another origin, with or without a cookie, and opens no session', async () => {
      const person = await registerPerson(t, 'Login forgery');
      for (const client of [new Client(t.api), person.client]) {
        const before = client.cookie;
        const res = await client.post('/auth/login', { email: person.email, password: person.password }, { headers: evil });
        expectError(res, 403, CROSS_SITE);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(client.cookie).toBe(before);
      }
      const own = new URL(t.api).origin;
      const ok = await new Client(t.api).post('/auth/login', { email: person.email, password: person.password }, { headers: { origin: own } });
      expect(ok.status).toBe(200);
      // Without Origin the rule does not refuse (a non-browser client).
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('refuses register from another origin and writes nothing', async () => {
      const email = uniqueEmail('forged');
      const res = await new Client(t.api).post('/auth/register', { email, name: 'Forged', password: 'long enough' }, { headers: evil });
      expectError(res, 403, CROSS_SITE);
      // No account was made: the address is still free to register from the service's own page.
      expect((await new Client(t.api).post('/auth/register', { email, name: 'Forged', password: 'long enough' })).status).toBe(201);
    });

    it('refuses logout from another origin and keeps the session', async () => {
      const person = await registerPerson(t, 'Logout forgery');
      const res = await person.client.post('/auth/logout', undefined, { headers: evil });
      expectError(res, 403, CROSS_SITE);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await person.client.get('/auth/me')).status).toBe(200);
    });

    it('refuses reset from another origin and leaves the link unused', async () => {
      const owner = await registerPerson(t, 'Owner');
      const p = await createProject(owner.client, 'Origin reset');
      const person = await registerPerson(t, 'Member');
      await addMember(owner.client, p.id, person);
      const token = (await owner.client.post(`/projects/${p.id}/members/${person.user.id}/reset`)).body.token;
      expectError(await new Client(t.api).post('/auth/reset', { token, password: 'forged password' }, { headers: evil }), 403, CROSS_SITE);
      expect((await new Client(t.api).post('/auth/reset', { token, password: 'own password' })).status).toBe(200);
    });

    it('refuses forgot from another origin, before anything else', async () => {
      expectError(await new Client(t.api).post('/auth/forgot', { email: uniqueEmail() }, { headers: evil }), 403, CROSS_SITE);
    });

    it('refuses a form post (text/plain) from another origin, and the opaque origin null', async () => {
      const person = await registerPerson(t, 'Form');
      for (const origin of ['https://evil.example', 'null']) {
        const res = await new Client(t.api).post('/auth/login', undefined, {
          headers: { origin, 'content-type': 'text/plain' },
          raw: JSON.stringify({ email: person.email, password: person.password }),
        });
        expectError(res, 403, CROSS_SITE);
      }
    });

    it('does not check a request with an agent token', async () => {
      const owner = await registerPerson(t, 'Owner');
      const p = await createProject(owner.client, 'Agent logout');
      const agent = await createAgent(owner.client, p.id);
      const res = await agent.client.post('/auth/logout', undefined, { headers: evil });
      expect(res.status).toBe(200);
    });
  });

  describe('look-alike emails', () => {
    let alice: Person;
    beforeAll(async () => {
      alice = await registerPerson(t, 'Alice', `alice-${Date.now()}@example.test`);
    });
    const withLocal = (local: string) => alice.email.replace(/^[^@]+/, local);
    const aliceLocal = () => alice.email.split('@')[0];

    it.each([
      ['a trailing dot', () => `${alice.email}.`],
      ['a zero-width space', () => withLocal(`${aliceLocal()}\u200b`)],
      ['a zero-width joiner', () => withLocal(`al\u200dice${aliceLocal().slice(5)}`)],
      ['angle brackets', () => '<script>@example.test'],
    ])('refuses %s at register with the decided sentence, and makes no account', async (_label, email) => {
      // Storage itself: no route counts the accounts.
      const before = (await t.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n;
      expectError(await new Client(t.api).post('/auth/register', { email: email(), name: 'Twin', password: 'long enough' }), 400, BAD_EMAIL);
      expect((await t.sql.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
    });

    it('reads a fullwidth letter as the plain one: register is taken, login signs Alice in', async () => {
      const fullwidth = withLocal(`\uff41${aliceLocal().slice(1)}`);
      expectError(await new Client(t.api).post('/auth/register', { email: fullwidth, name: 'Twin', password: 'long enough' }), 409, TAKEN);
      const upper = ` ${alice.email.toUpperCase()} `;
      expectError(await new Client(t.api).post('/auth/register', { email: upper, name: 'Twin', password: 'long enough' }), 409, TAKEN);
      const login = await new Client(t.api).post('/auth/login', { email: fullwidth, password: alice.password });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(alice.user.id);
    });

    it('reads a combining accent as the composed letter: one account for both spellings', async () => {
      const tag = Date.now();
      const decomposed = `a\u0301lice-${tag}@example.test`;
      const composed = `\u00e1lice-${tag}@example.test`;
      const first = await new Client(t.api).post('/auth/register', { email: decomposed, name: 'Álice', password: 'long enough' });
      expect(first.status).toBe(201);
      expect(first.body.user.email).toBe(composed);
      expectError(await new Client(t.api).post('/auth/register', { email: composed, name: 'Twin', password: 'long enough' }), 409, TAKEN);
      expect((await new Client(t.api).post('/auth/login', { email: composed, password: 'long enough' })).body.user.id).toBe(first.body.user.id);
      // And it is not Alice: a different letter is a different address (storage itself: the one row holding it).
      expect((await t.sql.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [composed])).rows[0].n).toBe(1);
    });

    it('adds members and invites by the normalised email: no second Carol, a member again is 409', async () => {
      const owner = await registerPerson(t, 'Owner');
      const p = await createProject(owner.client, 'Carols');
      const carol = `carol-${Date.now()}@example.test`;
      const invite = await owner.client.post(`/projects/${p.id}/members`, { email: carol });
      expect(invite.status).toBe(201);
      expect(invite.body.invite!.email).toBe(carol);
      expectError(await owner.client.post(`/projects/${p.id}/members`, { email: `${carol}.` }), 400, BAD_EMAIL);
      expectError(await owner.client.post(`/projects/${p.id}/members`, { email: carol.replace('carol', 'carol\u200b') }), 400, BAD_EMAIL);
      const again = await owner.client.post(`/projects/${p.id}/members`, { email: ` ${carol.replace('c', '\uff23')} ` });
      expect(again.status).toBe(201);
      expect(again.body.invite!.email).toBe(carol);
      const board = await owner.client.get(`/projects/${p.id}/board`);
      expect(board.body.invites.map((i) => ({ email: i.email }))).toEqual([{ email: carol }]);
      // Carol registers with a look-alike spelling and lands in the project; added again: 409.
      const joined = await new Client(t.api).post('/auth/register', { email: carol.toUpperCase(), name: 'Carol', password: 'long enough' });
      expect(joined.status).toBe(201);
      expectError(await owner.client.post(`/projects/${p.id}/members`, { email: carol.replace('c', '\uff43') }), 409, ALREADY);
      expect((await owner.client.post(`/projects/${p.id}/members`, { email: alice.email })).status).toBe(201);
      expectError(await owner.client.post(`/projects/${p.id}/members`, { email: ` ${alice.email.toUpperCase()}` }), 409, ALREADY);
    });

    it('with SERVICE_SIGNUP=invite, finds the invite by the normalised email', async () => {
      const invited = await startTestApp({ env: { SERVICE_SIGNUP: 'invite' } });
      try {
        // Nobody may register without an invite: the first account is made straight in the database.
        const ownerId = '11111111-1111-4111-8111-111111111111';
        const projectId = '22222222-2222-4222-8222-222222222222';
        await invited.sql.query(`INSERT INTO users (id, kind, email, name, color) VALUES ($1, 'human', 'owner@example.test', 'Owner', '#e0574d')`, [ownerId]);
        await invited.sql.query(`INSERT INTO projects (id, name, key, owner_id) VALUES ($1, 'Invite only', 'INV', $2)`, [projectId, ownerId]);
        await invited.sql.query(`INSERT INTO invites (project_id, email, role) VALUES ($1, 'dora@example.test', 'member')`, [projectId]);
        const res = await new Client(invited.api).post('/auth/register', { email: ' ＤＯＲＡ@Example.Test ', name: 'Dora', password: 'long enough' });
        expect(res.status).toBe(201);
        expect(res.body.user.email).toBe('dora@example.test');
        expectError(
          await new Client(invited.api).post('/auth/register', { email: 'dora@example.test.', name: 'Dora', password: 'long enough' }),
          400,
          BAD_EMAIL,
        );
      } finally {
        await invited.close();
      }
    });
  });

  describe('the migration that normalises stored emails', () => {
    it('normalises users and invites; keeps both accounts that become equal, and each still signs in', async () => {
      const db = await startTestApp();
      try {
        const dataSource = db.app.get(DataSource);
        const migration = new AccountSecurity1764460800000();
        const run = async (step: 'up' | 'down') => {
          const runner = dataSource.createQueryRunner();
          try {
            await migration[step](runner);
          } finally {
            await runner.release();
          }
        };
        const older = await registerPerson(db, 'Older', 'twin@example.test', 'older password');
        const newer = await registerPerson(db, 'Newer', 'twin-later@example.test', 'newer password');
        const plain = await registerPerson(db, 'Plain', 'plain@example.test', 'plain password');
        const owner = await registerPerson(db, 'Owner');
        const p = await createProject(owner.client, 'Invites');
        await run('down');
        // Storage itself: a migration's test writes the rows as the old rules stored them and reads what it made of them.
        // Emails as the old rules let them in: a fullwidth look-alike and a capitalised one.
        await db.sql.query(`UPDATE users SET email = $2 WHERE id = $1`, [newer.user.id, '\uff34win@example.test']);
        await db.sql.query(`UPDATE users SET email = $2 WHERE id = $1`, [plain.user.id, ' Plain@Example.TEST']);
        await db.sql.query(
          `INSERT INTO invites (project_id, email, role, created_at) VALUES ($1, 'dan@example.test', 'member', now() - interval '1 day'),
                  ($1, '\uff24an@example.test', 'admin', now()), ($1, 'Eve@Example.test', 'member', now())`,
          [p.id],
        );
        await run('up');

        const users = await db.sql.query('SELECT id, email, email_twin FROM users WHERE id = ANY($1) ORDER BY email_twin', [[older.user.id, newer.user.id]]);
        expect(users.rows).toEqual([
          { id: older.user.id, email: 'twin@example.test', email_twin: 0 },
          { id: newer.user.id, email: 'twin@example.test', email_twin: 1 },
        ]);
        expect((await db.sql.query('SELECT email FROM users WHERE id = $1', [plain.user.id])).rows[0].email).toBe('plain@example.test');
        const invites = await db.sql.query('SELECT email, role FROM invites WHERE project_id = $1 ORDER BY email', [p.id]);
        expect(invites.rows).toEqual([
          { email: 'dan@example.test', role: 'member' },
          { email: 'eve@example.test', role: 'member' },
        ]);

        // Each twin signs in with its own password; a wrong one signs in neither.
        const first = await new Client(db.api).post('/auth/login', { email: 'twin@example.test', password: 'older password' });
        expect(first.body.user?.id).toBe(older.user.id);
        const second = await new Client(db.api).post('/auth/login', { email: 'TWIN@example.test', password: 'newer password' });
        expect(second.body.user?.id).toBe(newer.user.id);
        expectError(await new Client(db.api).post('/auth/login', { email: 'twin@example.test', password: 'neither' }), 401, LOGIN_FAILED);
        expect((await new Client(db.api).post('/auth/login', { email: 'plain@example.test', password: 'plain password' })).status).toBe(200);
        // Nobody new gets that email; adding it as a member adds the oldest account.
        expectError(await new Client(db.api).post('/auth/register', { email: 'twin@example.test', name: 'Third', password: 'long enough' }), 409, TAKEN);
        const added = await owner.client.post(`/projects/${p.id}/members`, { email: 'twin@example.test' });
        expect(added.body.member?.id).toBe(older.user.id);
      } finally {
        await db.close();
      }
    });
  });
});
