import { createHash } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import { expectError, expectStatus } from '../support/fixtures';
import { MailCatcher, ReceivedMail, startMailCatcher } from '../support/smtp';
import { Answer, Client, createAgent, createProject, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';
import type { ErrorAnswer } from '../support/answers';

const SERVICE_URL = 'https://board.example.test';
const MAIL_FROM = 'Task board <board@example.test>';
const UNAVAILABLE = 'This board cannot email you a link. Ask an admin of your project to make you one.';
const DEAD_LINK = 'This link does not work any more. Ask the owner of your project for a new one.';
const TOO_MANY = /^Too many tries\. Wait (\d+) minutes and try again\.$/;
const LINK = new RegExp(`${SERVICE_URL.replace(/\./g, '\\.')}/reset\\?token=(svcr_[A-Za-z0-9_-]+)`);

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The address `forgot` calls from unless told (behind a trusted proxy); each test takes a new one. */
let caller = '10.0.0.1';
const forgot = (t: TestApp, email: unknown, headers: Record<string, string> = { 'x-forwarded-for': caller }) =>
  new Client(t.api).post('/auth/forgot', email === undefined ? {} : { email }, { headers });

function tokenOf(mail: ReceivedMail): string {
  const inText = LINK.exec(mail.text ?? '');
  const inHtml = LINK.exec(mail.html ?? '');
  expect(inText).not.toBeNull();
  expect(inHtml?.[1]).toBe(inText![1]);
  return inText![1];
}

function expectThrottled(res: Answer): void {
  expect(res.status).toBe(429);
  const body = res.body as ErrorAnswer;
  expect(body.error).toMatch(TOO_MANY);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(Number(TOO_MANY.exec(body.error)![1])).toBe(Math.ceil(Number(res.headers.get('retry-after')) / 60));
}

/** Everything the service writes to stdout and stderr while `work` runs (`work` may read it as it grows). */
async function captureLogs(work: (written: string[]) => Promise<void>): Promise<string> {
  const written: string[] = [];
  const keep = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(keep);
  try {
    await work(written);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return written.join('');
}

/** A mail part's lines as a reader sees them (the relay's CRLF and trailing blanks aside). */
const linesOf = (part: string | null): string[] => (part ?? '').split(/\r?\n/).map((l) => l.trimEnd());

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await pause(20);
  }
}

describe('mail', () => {
  describe('without mail or SERVICE_URL', () => {
    it('answers forgot 404 with the decided sentence, and sends no invite', async () => {
      const catcher = await startMailCatcher();
      const apps = [
        await startTestApp({ env: { SERVICE_URL } }),
        await startTestApp({ env: { SMTP_URL: catcher.url, MAIL_FROM } }),
        await startTestApp({ env: { SMTP_URL: catcher.url, SERVICE_URL } }),
      ];
      try {
        for (const [i, t] of apps.entries()) {
          const person = await registerPerson(t, 'Nomail');
          expectError(await forgot(t, person.email), 404, UNAVAILABLE);
          const project = await createProject(person.client, 'No mail');
          const email = uniqueEmail('invitee');
          const res = await person.client.post(`/projects/${project.id}/members`, { email });
          expect(res.status).toBe(201);
          // No mail went out: the answer says so, with the link to hand over when the board knows its address.
          const signupUrl = i === 1 ? null : `${SERVICE_URL}/?invite=${encodeURIComponent(email)}`;
          expect(res.body.invite).toEqual({ email, createdAt: expect.any(String), mailed: false, signupUrl });
        }
        await pause(300);
        expect(catcher.mails).toHaveLength(0);
      } finally {
        for (const t of apps) await t.close();
        await catcher.close();
      }
    });
  });

  describe('with an SMTP relay', () => {
    let catcher: MailCatcher;
    let t: TestApp;
    beforeAll(async () => {
      catcher = await startMailCatcher();
      t = await startTestApp({ env: { SMTP_URL: catcher.url, MAIL_FROM, SERVICE_URL: `${SERVICE_URL}/`, SERVICE_TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });
    });
    afterAll(async () => {
      await t.close();
      await catcher.close();
    });
    let callers = 1;
    beforeEach(() => {
      catcher.mails.length = 0;
      catcher.refuse = false;
      // An address of its own per test: one test's requests never throttle the next.
      caller = `10.0.0.${++callers}`;
    });

    it('mails a person a link that works once, ends every session and signs the caller in', async () => {
      const person = await registerPerson(t, 'Forgetful');
      const other = new Client(t.api);
      expect((await other.post('/auth/login', { email: person.email, password: person.password })).status).toBe(200);
      const res = await forgot(t, ` ${person.email.toUpperCase()} `);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, message: expect.any(String) });
      expect(res.headers.get('set-cookie')).toBeNull();

      const [mail] = await catcher.waitFor(1);
      expect(mail.to).toEqual([person.email]);
      expect(mail.from).toBe('board@example.test');
      expect(mail.headers.from).toContain('board@example.test');
      expect(mail.text).toContain('Forgetful');
      const token = tokenOf(mail);
      // Only the digest is kept, for 24 hours. Storage itself: no read shows what is kept.
      const stored = await t.sql.query('SELECT digest, expires_at, made_by FROM reset_tokens WHERE user_id = $1', [person.user.id]);
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0].digest).toBe(sha256(token));
      expect(stored.rows[0].made_by).toBeNull();
      const hours = (new Date(stored.rows[0].expires_at).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24.01);

      const caller = new Client(t.api);
      const reset = await caller.post('/auth/reset', { token, password: 'mailed new password' });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ ok: true });
      expect((await caller.get('/auth/me')).body.user.id).toBe(person.user.id);
      for (const c of [person.client, other]) expect((await c.get('/auth/me')).status).toBe(401);
      expectError(await new Client(t.api).post('/auth/reset', { token, password: 'second use' }), 400, DEAD_LINK);
      expect((await new Client(t.api).post('/auth/login', { email: person.email, password: 'mailed new password' })).status).toBe(200);
    });

    it('answers an unknown email, an agent’s name and a person without a password alike, and mails none of them', async () => {
      const known = await registerPerson(t, 'Known');
      const owner = await registerPerson(t, 'Owner');
      const project = await createProject(owner.client, 'Agents');
      await createAgent(owner.client, project.id, 'Robo');
      const passwordless = uniqueEmail('nopassword');
      // Storage itself: no route makes a person without a password.
      await t.sql.query(`INSERT INTO users (id, kind, email, name, color) VALUES (gen_random_uuid(), 'human', $1, 'No password', '#e0574d')`, [passwordless]);

      const answers = [];
      for (const email of [uniqueEmail('ghost'), passwordless, 'robo@example.test']) answers.push(await forgot(t, email));
      // A known email last: once its mail is in, the others had their chance to arrive before it.
      answers.push(await forgot(t, known.email));
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body).toEqual(answers[3].body);
      }
      await catcher.waitFor(1);
      await pause(200);
      expect(catcher.mails.map((m) => m.to)).toEqual([[known.email]]);
    });

    it('voids older links, a member-made one included: only the newest works', async () => {
      const owner = await registerPerson(t, 'Owner');
      const project = await createProject(owner.client, 'Links');
      const person = await registerPerson(t, 'Member');
      expect((await owner.client.post(`/projects/${project.id}/members`, { email: person.email })).status).toBe(201);
      const made = (await owner.client.post(`/projects/${project.id}/members/${person.user.id}/reset`)).body.token;
      await forgot(t, person.email);
      await catcher.waitFor(1);
      await forgot(t, person.email);
      const [first, second] = await catcher.waitFor(2);
      for (const dead of [made, tokenOf(first)]) expectError(await new Client(t.api).post('/auth/reset', { token: dead, password: 'long enough' }), 400, DEAD_LINK);
      expect((await new Client(t.api).post('/auth/reset', { token: tokenOf(second), password: 'long enough' })).status).toBe(200);
    });

    it('refuses a missing, empty, long or malformed email with the contract’s sentences', async () => {
      for (const email of [undefined, null, '', '   ']) expectError(await forgot(t, email), 400, 'Type the email of your account.');
      expectError(await forgot(t, `${'a'.repeat(190)}@example.test`), 400, 'Email is too long (max 200 characters).');
      expectError(await forgot(t, 'alice@example.test.'), 400, 'That email address does not look correct.');
      expectError(await forgot(t, 42), 400, 'Email must be text.');
    });

    it('throttles per address: the eleventh request is 429 with Retry-After, whatever the email', async () => {
      const headers = { 'x-forwarded-for': '203.0.113.50' };
      for (let i = 0; i < 10; i++) expect((await forgot(t, uniqueEmail(`a${i}`), headers)).status).toBe(200);
      expectThrottled(await forgot(t, uniqueEmail('eleventh'), headers));
      expect((await forgot(t, uniqueEmail('elsewhere'), { 'x-forwarded-for': '203.0.113.51' })).status).toBe(200);
    });

    it('throttles per lowercased email, from any address, and mails no more than ten links', async () => {
      const person = await registerPerson(t, 'Flooded');
      for (let i = 0; i < 10; i++) {
        const email = i % 2 ? person.email.toUpperCase() : person.email;
        expect((await forgot(t, email, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).toBe(200);
      }
      expectThrottled(await forgot(t, person.email, { 'x-forwarded-for': '198.51.100.99' }));
      await catcher.waitFor(10);
      await pause(200);
      expect(catcher.mails).toHaveLength(10);
    });

    it('counts each of fifty requests at once: ten answered, forty 429', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => forgot(t, uniqueEmail(`burst${i}`), { 'x-forwarded-for': '192.0.2.77' })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(40);
      refused.forEach(expectThrottled);
    });

    it('mails an invite a sign-up link, in a plain-text and an HTML part', async () => {
      const owner = await registerPerson(t, 'Olga <Owner>');
      const project = await createProject(owner.client, 'Roadmap & Co');
      const email = uniqueEmail('invitee');
      const res = await owner.client.post(`/projects/${project.id}/members`, { email: ` ${email.toUpperCase()} ` });
      expect(res.status).toBe(201);
      const link = `${SERVICE_URL}/?invite=${encodeURIComponent(email)}`;
      // Accepted by the relay before the answer: the mail is already in.
      expect(res.body.invite).toEqual({ email, createdAt: expect.any(String), mailed: true, signupUrl: link });
      expect(catcher.mails).toHaveLength(1);
      const [mail] = catcher.mails;
      expect(mail.to).toEqual([email]);
      expect(mail.subject).toBe('You are invited to a project on a task board');
      expect(mail.text).toContain(link);
      expect(linesOf(mail.text)).toEqual(expect.arrayContaining(['Project: Roadmap & Co', 'Invited by: Olga <Owner>']));
      expect(mail.html).toContain(`href="${link}"`);
      expect(mail.html).toContain('Project: Roadmap &amp; Co<br>Invited by: Olga &lt;Owner&gt;');
      expect(mail.html).not.toContain('<Owner>');
      // Adding an existing account mails nothing.
      const existing = await registerPerson(t, 'Existing');
      expect((await owner.client.post(`/projects/${project.id}/members`, { email: existing.email })).status).toBe(201);
      await pause(300);
      expect(catcher.mails).toHaveLength(1);
    });

    it('shows the names on lines of their own, line breaks made spaces, and no other text of the inviter', async () => {
      const owner = await registerPerson(t, 'Mallory');
      const project = await createProject(owner.client, 'Phish');
      const phishing = 'Team\r\nYOUR ACCOUNT IS LOCKED.\nSign in at https://evil.example/login\u2028now';
      // Names with line breaks, however they got there (a name written before today's rules).
      // Storage itself: today's rules refuse such names on every route.
      await t.sql.query('UPDATE projects SET name = $1 WHERE id = $2', [phishing, project.id]);
      await t.sql.query('UPDATE users SET name = $1 WHERE id = $2', ['Mal\nlory\rthe admin', owner.user.id]);
      const email = uniqueEmail('target');
      const res = await owner.client.post(`/projects/${project.id}/members`, { email });
      expect(res.body.invite!.mailed).toBe(true);
      const [mail] = catcher.mails;
      expect(mail.subject).toBe('You are invited to a project on a task board');
      const lines = linesOf(mail.text);
      expect(lines).toContain('Project: Team YOUR ACCOUNT IS LOCKED. Sign in at https://evil.example/login now');
      expect(lines).toContain('Invited by: Mal lory the admin');
      // Nothing else of theirs: the names appear once each, and no line starts with their words.
      expect(lines.filter((l) => l.includes('evil.example'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('lory'))).toHaveLength(1);
      expect(lines.some((l) => /^(YOUR ACCOUNT|Sign in at|now|lory|the admin)/.test(l))).toBe(false);
      expect(mail.html).toContain('Project: Team YOUR ACCOUNT IS LOCKED. Sign in at https://evil.example/login now<br>Invited by: Mal lory the admin');
    });

    it('mails an address once per project a day: adding it again, or ten adds at once, answers mailed: false', async () => {
      const owner = await registerPerson(t, 'Once');
      const admin = await registerPerson(t, 'Admin');
      const project = await createProject(owner.client, 'Once');
      const other = await createProject(owner.client, 'Other');
      expect((await owner.client.post(`/projects/${project.id}/members`, { email: admin.email, role: 'admin' })).status).toBe(201);
      const email = uniqueEmail('once');
      const first = await owner.client.post(`/projects/${project.id}/members`, { email });
      expect(first.body.invite!.mailed).toBe(true);
      // Again (by another admin, after a withdraw too): answers as before, without a mail.
      const again = await admin.client.post(`/projects/${project.id}/members`, { email: email.toUpperCase() });
      expect(again.status).toBe(201);
      expect(again.body.invite).toEqual({ ...first.body.invite!, createdAt: expect.any(String), mailed: false });
      expect((await owner.client.delete(`/projects/${project.id}/invites/${encodeURIComponent(email)}`)).status).toBe(200);
      expect((await owner.client.post(`/projects/${project.id}/members`, { email })).body.invite!.mailed).toBe(false);
      // Another project may mail the same address.
      expect((await owner.client.post(`/projects/${other.id}/members`, { email })).body.invite!.mailed).toBe(true);
      expect(catcher.mails.map((m) => m.to)).toEqual([[email], [email]]);

      // Ten adds of a new address at once, by two people: one mail.
      const burst = uniqueEmail('burst');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? admin : owner).client.post(`/projects/${project.id}/members`, { email: burst })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      expect(answers.filter((a) => a.body.invite!.mailed)).toHaveLength(1);
      await pause(200);
      expect(catcher.mails.filter((m) => m.to[0] === burst)).toHaveLength(1);
    });

    it('lets a person send 50 invite mails a day, counted under concurrency on two instances; then an unknown email is 429 with Retry-After and writes nothing', async () => {
      const owner = await registerPerson(t, 'Spammer');
      const projects = [await createProject(owner.client, 'Spam one'), await createProject(owner.client, 'Spam two')];
      const emails = Array.from({ length: 60 }, (_, i) => uniqueEmail(`stranger${i}`));
      // A second instance on the same database, behind the same load balancer: the same session works on both.
      const second = await startTestApp({ databaseUrl: t.databaseUrl, env: { SMTP_URL: catcher.url, MAIL_FROM, SERVICE_URL, LOG_LEVEL: 'warn' } });
      const there = new Client(second.api);
      there.cookie = owner.client.cookie;
      type Added = { invite?: { email: string; createdAt: string; mailed: boolean; signupUrl: string | null } };
      let answers: Answer<Added>[];
      try {
        answers = await Promise.all(emails.map((email, i) => (i % 3 ? owner.client : there).post<Added>(`/projects/${projects[i % 2].id}/members`, { email })));
      } finally {
        await second.close();
      }
      const added = answers.filter((a) => a.status === 201);
      expect(added).toHaveLength(50);
      expect(added.every((a) => a.body.invite!.mailed === true)).toBe(true);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused).toHaveLength(10);
      for (const r of refused) {
        expectError(r, 429, 'You have sent too many invites today.');
        const retry = Number(r.headers.get('retry-after'));
        expect(retry).toBeGreaterThan(24 * 3600 - 120);
        expect(retry).toBeLessThanOrEqual(24 * 3600);
      }
      expect(catcher.mails).toHaveLength(50);
      // The refused adds wrote no invite.
      let invites = 0;
      for (const p of projects) invites += (await expectStatus(owner.client.get(`/projects/${p.id}/board`), 200)).invites.length;
      expect(invites).toBe(50);
      // An address mailed already answers as before; an account is still added; another person still invites.
      const mailedAlready = emails[answers.indexOf(added[0])];
      const projectOf = projects[answers.indexOf(added[0]) % 2];
      expect((await owner.client.post(`/projects/${projectOf.id}/members`, { email: mailedAlready })).body.invite!.mailed).toBe(false);
      const person = await registerPerson(t, 'Real');
      expect((await owner.client.post(`/projects/${projects[0].id}/members`, { email: person.email })).status).toBe(201);
      expectError(await owner.client.post(`/projects/${projects[0].id}/members`, { email: uniqueEmail('one-more') }), 429, 'You have sent too many invites today.');
      const other = await registerPerson(t, 'Other');
      const otherProject = await createProject(other.client, 'Fine');
      expect((await other.client.post(`/projects/${otherProject.id}/members`, { email: uniqueEmail('fine') })).body.invite!.mailed).toBe(true);
      // A day later the count is back. A forced clock: a day cannot pass in a test.
      await t.sql.query(`UPDATE invite_mails SET sent_at = sent_at - interval '1 day' WHERE sender_id = $1`, [owner.user.id]);
      expect((await owner.client.post(`/projects/${projects[0].id}/members`, { email: uniqueEmail('tomorrow') })).body.invite!.mailed).toBe(true);
      // The retention sweep forgets the mails past their day.
      const { RetentionSweeper } = await import('../../apps/api/src/tasks/retention.sweeper');
      await t.app.get(RetentionSweeper).sweep();
      // Storage itself: no read shows the mails a person sent.
      const left = await t.sql.query('SELECT count(*)::int AS n FROM invite_mails WHERE sender_id = $1', [owner.user.id]);
      expect(left.rows[0].n).toBe(1);
    });

    it('logs a mail the relay refuses, without the link, and still answers', async () => {
      const person = await registerPerson(t, 'Refused');
      const owner = await registerPerson(t, 'Owner');
      const project = await createProject(owner.client, 'Refusals');
      catcher.refuse = true;
      const logs = await captureLogs(async (written) => {
        const res = await forgot(t, person.email);
        expect(res.status).toBe(200);
        expect(res.body.ok).toBe(true);
        const invite = await owner.client.post(`/projects/${project.id}/members`, { email: uniqueEmail('refused-invitee') });
        expect(invite.status).toBe(201);
        expect(invite.body.invite!.mailed).toBe(false);
        await until(() => (written.join('').match(/could not be sent/g) ?? []).length >= 2);
      });
      expect(logs).toMatch(/A reset link mail could not be sent: .*550/);
      expect(logs).toMatch(/An invite mail could not be sent: .*550/);
      expect(logs).not.toMatch(/svcr_[A-Za-z0-9_-]{8,}/);
      // Storage itself: the digest is never shown.
      const digest = (await t.sql.query('SELECT digest FROM reset_tokens WHERE user_id = $1', [person.user.id])).rows[0].digest;
      expect(logs).not.toContain(digest);
    });
  });

  describe('with a relay that is down or hangs', () => {
    it('answers forgot and invites at once and logs the failure', async () => {
      // A port that refuses connections: taken, then closed.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const downPort = (closed.address() as { port: number }).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      // And one that accepts and never greets.
      const sockets: Socket[] = [];
      const hanging: Server = createServer((s) => sockets.push(s));
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const hangPort = (hanging.address() as { port: number }).port;

      for (const [label, port] of [['down', downPort], ['hanging', hangPort]] as const) {
        const t = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM, SERVICE_URL, LOG_LEVEL: 'warn' } });
        try {
          const person = await registerPerson(t, 'Unlucky');
          const logs = await captureLogs(async (written) => {
            const started = Date.now();
            const res = await forgot(t, person.email);
            expect([label, res.status, res.body.ok]).toEqual([label, 200, true]);
            expect(Date.now() - started).toBeLessThan(1000);
            const project = await createProject(person.client, 'Down');
            // The add waits for its mail (a bounded time): it answers once the relay fails, mailed: false.
            const adding = person.client.post(`/projects/${project.id}/members`, { email: uniqueEmail('x') });
            if (label === 'hanging') {
              // Both mails wait on the greeting (the forgot answer did not); then the relay drops them.
              await until(() => sockets.length >= 2);
              for (const s of sockets) s.destroy();
            }
            const added = await adding;
            expect([label, added.status, added.body.invite!.mailed]).toEqual([label, 201, false]);
            await until(() => (written.join('').match(/could not be sent/g) ?? []).length >= 2);
          });
          expect(logs).toMatch(/A reset link mail could not be sent/);
          expect(logs).toMatch(/An invite mail could not be sent/);
          expect(logs).not.toMatch(/svcr_[A-Za-z0-9_-]{8,}/);
        } finally {
          await t.close();
        }
      }
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    });
  });
});
