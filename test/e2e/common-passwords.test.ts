import { expectError } from '../support/fixtures';
import { addMember, Client, createProject, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';

const TOO_COMMON = 'That password is too common. Pick another one.';
const PASSWORD_SHORT = 'The password must have at least 8 characters.';
const NEW_PASSWORD_SHORT = 'The new password must have at least 8 characters.';

/** Issue "The first hour", point 5: SecLists' top 10,000 are refused, in any case; the length answers first. */
describe('common passwords are refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  // Every request comes from 127.0.0.1: the throttle stays out of these tests.
  beforeEach(() => t.sql.query('DELETE FROM throttle_failures'));

  // Storage itself: no route counts the accounts with an address.
  const usersWith = async (email: string) => (await t.sql.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [email])).rows[0].n as number;

  describe('POST /api/auth/register', () => {
    it.each(['password1', 'PassWord1', 'ILOVEYOU', 'qwertyuiop', 'Sunshine'])('refuses %s with 400 and makes no account', async (password) => {
      const email = uniqueEmail('common');
      expectError(await new Client(t.api).post('/auth/register', { email, name: 'Robin', password }), 400, TOO_COMMON);
      expect(await usersWith(email)).toBe(0);
    });

    it('checks the eight-character minimum first (abc123 is common and short)', async () => {
      expectError(await new Client(t.api).post('/auth/register', { email: uniqueEmail(), name: 'Robin', password: 'abc123' }), 400, PASSWORD_SHORT);
    });

    it('takes a password off the list, and one that only contains a common one', async () => {
      for (const password of ['correct horse', 'password1 and more']) {
        expect((await new Client(t.api).post('/auth/register', { email: uniqueEmail(), name: 'Robin', password })).status).toBe(201);
      }
    });
  });

  describe('POST /api/auth/reset', () => {
    it('refuses a common password and leaves the link unused; the link then works with a good one', async () => {
      const owner = await registerPerson(t, 'Owner');
      const project = await createProject(owner.client, 'Resets');
      const person = await registerPerson(t, 'Forgetful');
      await addMember(owner.client, project.id, person);
      const link = await owner.client.post<{ token: string }>(`/projects/${project.id}/members/${person.user.id}/reset`);
      expect(link.status).toBe(200);

      const caller = new Client(t.api);
      expectError(await caller.post('/auth/reset', { token: link.body.token, password: 'Trustno1' }), 400, TOO_COMMON);
      expectError(await caller.post('/auth/reset', { token: link.body.token, password: 'abc123' }), 400, PASSWORD_SHORT);
      // Nothing changed: the old password still signs in, the person's session lives.
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: 'Trustno1' })).status).toBe(401);
      expect((await person.client.get('/auth/me')).status).toBe(200);

      expect((await caller.post('/auth/reset', { token: link.body.token, password: 'a much better one' })).status).toBe(200);
    });
  });

  describe('POST /api/auth/password', () => {
    it('refuses a common new password and keeps the old one and the other sessions', async () => {
      const person = await registerPerson(t, 'Changer');
      const other = new Client(t.api);
      expect((await other.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);

      expectError(await person.client.post('/auth/password', { current: person.password, next: 'BASEBALL' }), 400, TOO_COMMON);
      expectError(await person.client.post('/auth/password', { current: person.password, next: 'abc123' }), 400, NEW_PASSWORD_SHORT);
      expect((await other.get('/auth/me')).status).toBe(200);
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: 'baseball' })).status).toBe(401);

      expect((await person.client.post('/auth/password', { current: person.password, next: 'not on any list' })).status).toBe(200);
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: 'not on any list' })).status).toBe(200);
    });
  });
});
