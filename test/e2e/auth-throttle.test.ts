import {
  addMember, Answer, Client, createProject, Person, registerPerson, startTestApp, TestApp, uniqueEmail,
} from '../support/test-app';
import type { ErrorAnswer } from '../support/answers';

const TOO_MANY = /^Too many tries\. Wait (\d+) minutes and try again\.$/;
const LOGIN_FAILED = 'That email and password do not match.';
const DEAD_LINK = 'This link does not work any more. Ask the owner of your project for a new one.';

/** Asserts a 429 in the contract's words and answers its Retry-After (seconds) and N (minutes). */
function expectThrottled(res: Answer): { retryAfter: number; minutes: number } {
  expect(res.status).toBe(429);
  const body = res.body as ErrorAnswer;
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatch(TOO_MANY);
  const minutes = Number(TOO_MANY.exec(body.error)![1]);
  const header = res.headers.get('retry-after');
  expect(header).toMatch(/^\d+$/);
  const retryAfter = Number(header);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(minutes).toBeGreaterThanOrEqual(1);
  expect(minutes).toBeLessThanOrEqual(10);
  // The minutes in the sentence and the seconds in the header tell the same wait.
  expect(minutes).toBe(Math.ceil(retryAfter / 60));
  return { retryAfter, minutes };
}

async function failLogins(client: Client, email: string, times: number, headers: Record<string, string> = {}) {
  for (let i = 0; i < times; i++) {
    const res = await client.post('/auth/login', { email, password: `wrong ${i}` }, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: LOGIN_FAILED });
  }
}

/** Tallies the statuses of answers that came back together: `{ 401: 10, 429: 40 }`. */
function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** Every 429 of a burst in the contract's words with Retry-After, and no session given out. */
function expectThrottledAll(answers: Answer[]): void {
  for (const a of answers.filter((x) => x.status === 429)) {
    expectThrottled(a);
    expect(a.headers.get('set-cookie')).toBeNull();
  }
}

// Storage itself: the throttle's counters are shown by no route.
const failureCount = async (t: TestApp, family: string) =>
  (await t.sql.query('SELECT count(*)::int AS n FROM throttle_failures WHERE family = $1', [family])).rows[0].n as number;

describe('failed-try throttle', () => {
  // A fresh app (and database) per test, so counters never leak from one test to the next.
  let t: TestApp;
  let extra: TestApp | undefined;
  afterEach(async () => {
    if (extra) await extra.close();
    extra = undefined;
    await t.close();
  });

  describe('login', () => {
    let person: Person;
    beforeEach(async () => {
      t = await startTestApp();
      person = await registerPerson(t, 'Target');
    });

    it('answers the eleventh try after ten failures 429, even with the right password', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 10);
      const res = await client.post('/auth/login', { email: person.email, password: person.password });
      const { retryAfter } = expectThrottled(res);
      expect(retryAfter).toBeGreaterThan(590);
      expect(res.body.error).toBe('Too many tries. Wait 10 minutes and try again.');
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(client.cookie).toBeUndefined();
      // And every further try until the window clears.
      expectThrottled(await client.post('/auth/login', { email: person.email, password: person.password }));
      expectThrottled(await client.post('/auth/login', { email: uniqueEmail(), password: 'anything' }));
    });

    it('lets the tenth try through after nine failures', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 9);
      const res = await client.post('/auth/login', { email: person.email, password: person.password });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(person.user.id);
    });

    it('counts failures per address, not per account: unknown emails count too', async () => {
      const client = new Client(t.api);
      for (let i = 0; i < 10; i++) await failLogins(client, uniqueEmail(`ghost${i}`), 1);
      expectThrottled(await client.post('/auth/login', { email: person.email, password: person.password }));
    });

    it('keeps the families apart: a throttled login leaves register and reset alone', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 10);
      expectThrottled(await client.post('/auth/login', { email: person.email, password: person.password }));
      const reg = await new Client(t.api).post('/auth/register', { email: uniqueEmail(), name: 'New', password: 'long enough' });
      expect(reg.status).toBe(201);
      const reset = await new Client(t.api).post('/auth/reset', { token: 'svcr_nothing', password: 'long enough' });
      expect(reset.status).toBe(400);
      expect(reset.body).toEqual({ error: DEAD_LINK });
    });

    it('does not count a success, nor a throttled try', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 5);
      expect((await client.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      expect(await failureCount(t, 'login')).toBe(5);
      await failLogins(client, person.email, 5);
      for (let i = 0; i < 3; i++) expectThrottled(await client.post('/auth/login', { email: person.email, password: 'x' }));
      expect(await failureCount(t, 'login')).toBe(10);
    });

    it('clears when the failures leave the ten-minute window, and Retry-After tells when', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 10);
      // Nine minutes ago: the window clears in about a minute.
      // A forced clock (here and below): the ten-minute window cannot pass in a test.
      await t.sql.query(`UPDATE throttle_failures SET at = at - interval '9 minutes'`);
      const res = await client.post('/auth/login', { email: person.email, password: person.password });
      const { retryAfter } = expectThrottled(res);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(retryAfter).toBeGreaterThan(50);
      expect(res.body.error).toBe('Too many tries. Wait 1 minutes and try again.');
      // Tries refused with 429 meanwhile do not stretch the lock.
      for (let i = 0; i < 10; i++) expectThrottled(await client.post('/auth/login', { email: person.email, password: 'x' }));
      await t.sql.query(`UPDATE throttle_failures SET at = at - interval '2 minutes'`);
      const after = await client.post('/auth/login', { email: person.email, password: person.password });
      expect(after.status).toBe(200);
      expect(after.body.user.id).toBe(person.user.id);
    });

    it('waits for the oldest of the last ten failures, not the first ever', async () => {
      const client = new Client(t.api);
      await failLogins(client, person.email, 10);
      // Five old failures (seven minutes ago) and five new: still ten in the window.
      await t.sql.query(`UPDATE throttle_failures SET at = at - interval '7 minutes' WHERE id IN (SELECT id FROM throttle_failures ORDER BY id LIMIT 5)`);
      const { retryAfter, minutes } = expectThrottled(await client.post('/auth/login', { email: person.email, password: person.password }));
      expect(retryAfter).toBeGreaterThan(170);
      expect(retryAfter).toBeLessThanOrEqual(180);
      expect(minutes).toBe(3);
    });

    it('judges at most ten of fifty wrong logins sent at once; the rest are 429 with Retry-After', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => new Client(t.api).post('/auth/login', { email: person.email, password: `wrong ${i}` })),
      );
      expect(tally(answers)).toEqual({ 401: 10, 429: 40 });
      expectThrottledAll(answers);
      expect(await failureCount(t, 'login')).toBe(10);
    });

    it('does not sign in with the right password among forty at once once the ten are used', async () => {
      await failLogins(new Client(t.api), person.email, 10);
      const clients = Array.from({ length: 40 }, () => new Client(t.api));
      const answers = await Promise.all(
        clients.map((c, i) => c.post('/auth/login', { email: person.email, password: i === 20 ? person.password : `wrong ${i}` })),
      );
      expect(tally(answers)).toEqual({ 429: 40 });
      expectThrottledAll(answers);
      expect(clients.every((c) => c.cookie === undefined)).toBe(true);
      expect((await person.client.get('/auth/sessions')).body).toEqual({ others: 0 });
    });

    it('judges at most ten across two instances at once', async () => {
      extra = await startTestApp({ databaseUrl: t.databaseUrl });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => new Client(i % 2 ? extra!.api : t.api).post('/auth/login', { email: person.email, password: `wrong ${i}` })),
      );
      expect(tally(answers)).toEqual({ 401: 10, 429: 40 });
    });

    it('shares the counters between instances on one database', async () => {
      extra = await startTestApp({ databaseUrl: t.databaseUrl });
      await failLogins(new Client(t.api), person.email, 10);
      expectThrottled(await new Client(extra.api).post('/auth/login', { email: person.email, password: person.password }));
    });
  });

  describe('client address', () => {
    let person: Person;

    it('with SERVICE_TRUST_PROXY=true, counts each X-Forwarded-For address apart', async () => {
      t = await startTestApp({ env: { SERVICE_TRUST_PROXY: 'true' } });
      person = await registerPerson(t, 'Proxied', uniqueEmail(), 'right password');
      const client = new Client(t.api);
      await failLogins(client, person.email, 10, { 'x-forwarded-for': '203.0.113.7' });
      expectThrottled(await client.post('/auth/login', { email: person.email, password: 'right password' }, { headers: { 'x-forwarded-for': '203.0.113.7' } }));
      const other = await client.post('/auth/login', { email: person.email, password: 'right password' }, { headers: { 'x-forwarded-for': '203.0.113.8' } });
      expect(other.status).toBe(200);
      const direct = await client.post('/auth/login', { email: person.email, password: 'right password' });
      expect(direct.status).toBe(200);
      // Storage itself: which address the throttle counted is shown by no route.
      const subjects = (await t.sql.query('SELECT DISTINCT subject FROM throttle_failures')).rows.map((r) => r.subject);
      expect(subjects).toEqual(['203.0.113.7']);
    });

    it('without SERVICE_TRUST_PROXY, ignores X-Forwarded-For and counts the socket address', async () => {
      t = await startTestApp();
      person = await registerPerson(t, 'Direct', uniqueEmail(), 'right password');
      const client = new Client(t.api);
      for (let i = 0; i < 10; i++) await failLogins(client, person.email, 1, { 'x-forwarded-for': `198.51.100.${i + 1}` });
      expectThrottled(await client.post('/auth/login', { email: person.email, password: 'right password' }, { headers: { 'x-forwarded-for': '198.51.100.200' } }));
      expectThrottled(await client.post('/auth/login', { email: person.email, password: 'right password' }));
      // Storage itself: which address the throttle counted is shown by no route.
      const subjects = (await t.sql.query('SELECT DISTINCT subject FROM throttle_failures')).rows.map((r) => r.subject);
      expect(subjects).toHaveLength(1);
      expect(subjects[0]).not.toMatch(/^198\.51\.100\./);
    });
  });

  describe('register', () => {
    beforeEach(async () => {
      t = await startTestApp();
    });

    it('answers 429 after ten refusals from one address, even for a good registration', async () => {
      const taken = await registerPerson(t, 'Taken');
      const client = new Client(t.api);
      const bad: Array<[Record<string, unknown>, number]> = [
        [{ email: 'nope', name: 'A', password: 'long enough' }, 400],
        [{ name: 'A', password: 'long enough' }, 400],
        [{ email: uniqueEmail(), password: 'long enough' }, 400],
        [{ email: uniqueEmail(), name: 'A', password: 'short' }, 400],
        [{ email: uniqueEmail(), name: 'x'.repeat(81), password: 'long enough' }, 400],
        [{ email: taken.email, name: 'A', password: 'long enough' }, 409],
        [{ email: taken.email.toUpperCase(), name: 'A', password: 'long enough' }, 409],
        [{ email: 7, name: 'A', password: 'long enough' }, 400],
        [{ email: 'a@b', name: 'A', password: 'long enough' }, 400],
        [{ email: uniqueEmail(), name: '', password: 'long enough' }, 400],
      ];
      for (const [body, status] of bad) expect((await client.post('/auth/register', body)).status).toBe(status);
      const email = uniqueEmail('good');
      const res = await client.post('/auth/register', { email, name: 'Good', password: 'long enough' });
      expectThrottled(res);
      expect(res.headers.get('set-cookie')).toBeNull();
      // Storage itself: every register from this address is refused now, so no route can show the account was not made.
      const row = await t.sql.query('SELECT 1 FROM users WHERE email = $1', [email]);
      expect(row.rowCount).toBe(0);
      // Other families are not touched: the taken account still signs in.
      expect((await client.post('/auth/login', { email: taken.email, password: taken.password })).status).toBe(200);
    });

    it('lets a registration through after nine refusals', async () => {
      const client = new Client(t.api);
      for (let i = 0; i < 9; i++) expect((await client.post('/auth/register', { email: 'bad', name: 'A', password: 'long enough' })).status).toBe(400);
      expect((await client.post('/auth/register', { email: uniqueEmail(), name: 'Ok', password: 'long enough' })).status).toBe(201);
    });

    it('judges at most ten of fifty refused registrations sent at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => new Client(t.api).post('/auth/register', { email: uniqueEmail(`burst${i}`), name: 'A', password: 'short' })),
      );
      expect(tally(answers)).toEqual({ 400: 10, 429: 40 });
      expectThrottledAll(answers);
      expect(await failureCount(t, 'register')).toBe(10);
    });

    it('does not count successful registrations', async () => {
      const client = new Client(t.api);
      for (let i = 0; i < 12; i++) {
        expect((await client.post('/auth/register', { email: uniqueEmail(`ok${i}`), name: 'Ok', password: 'long enough' })).status).toBe(201);
      }
      expect(await failureCount(t, 'register')).toBe(0);
    });
  });

  describe('reset', () => {
    let owner: Person;
    let person: Person;
    let projectId: string;
    beforeEach(async () => {
      t = await startTestApp();
      owner = await registerPerson(t, 'Owner');
      person = await registerPerson(t, 'Member');
      projectId = (await createProject(owner.client, 'Resets')).id;
      await addMember(owner.client, projectId, person);
    });

    const makeLink = async (): Promise<string> => {
      const res = await owner.client.post(`/projects/${projectId}/members/${person.user.id}/reset`);
      expect(res.status).toBe(200);
      return res.body.token;
    };

    it('answers 429 after ten dead links, even for a live one, and leaves that link unused', async () => {
      const token = await makeLink();
      const client = new Client(t.api);
      for (let i = 0; i < 10; i++) {
        const res = await client.post('/auth/reset', { token: `svcr_dead${i}`, password: 'long enough' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: DEAD_LINK });
      }
      const res = await client.post('/auth/reset', { token, password: 'long enough' });
      expectThrottled(res);
      expect(res.headers.get('set-cookie')).toBeNull();
      // Storage itself: the throttle refuses the link now, so only the table shows it was not used up.
      expect((await t.sql.query('SELECT 1 FROM reset_tokens WHERE user_id = $1', [person.user.id])).rowCount).toBe(1);
      expect((await client.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      expect((await person.client.get('/auth/me')).status).toBe(200);
    });

    it('counts used, expired and superseded links as dead', async () => {
      const client = new Client(t.api);
      const used = await makeLink();
      expect((await client.post('/auth/reset', { token: used, password: 'first reset' })).status).toBe(200);
      const superseded = await makeLink();
      const expired = await makeLink();
      // A forced clock: a day cannot pass in a test.
      await t.sql.query(`UPDATE reset_tokens SET expires_at = now() - interval '1 second'`);
      const tokens = [used, superseded, expired, used, superseded, expired, used, superseded, expired, used];
      // The expired one is consumed on its first use; afterwards it is as dead as the rest.
      for (const token of tokens) {
        const res = await client.post('/auth/reset', { token, password: 'long enough' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: DEAD_LINK });
      }
      expectThrottled(await client.post('/auth/reset', { token: await makeLink(), password: 'long enough' }));
    });

    it('judges at most ten of fifty dead links sent at once, and a live one among them after that is 429', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => new Client(t.api).post('/auth/reset', { token: `svcr_dead${i}`, password: 'long enough' })),
      );
      expect(tally(answers)).toEqual({ 400: 10, 429: 40 });
      expectThrottledAll(answers);
      const token = await makeLink();
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) => new Client(t.api).post('/auth/reset', { token: i === 10 ? token : `svcr_more${i}`, password: 'long enough' })),
      );
      expect(tally(burst)).toEqual({ 429: 20 });
      // Storage itself: the throttle refuses the link now, so only the table shows it was not used up.
      expect((await t.sql.query('SELECT 1 FROM reset_tokens WHERE user_id = $1', [person.user.id])).rowCount).toBe(1);
    });

    it('does not count short passwords as dead links', async () => {
      const token = await makeLink();
      const client = new Client(t.api);
      for (let i = 0; i < 12; i++) {
        const res = await client.post('/auth/reset', { token, password: 'short' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'The password must have at least 8 characters.' });
      }
      expect((await client.post('/auth/reset', { token, password: 'long enough' })).status).toBe(200);
    });
  });
});
