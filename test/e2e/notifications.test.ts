/**
 * Notifications for people (extensions.md § 2): the four kinds with their people and text, the
 * mention rule, the inbox and its read marks, the personal stream across two instances, mail
 * after commit from the outbox (a sender that dies mid-way), `mailNotifications`, retention.
 */
import { randomUUID } from 'node:crypto';
import { Liveness } from '@board/kernel';
import { NotificationMailOutbox } from '@board/notifications';
import { MAIL_LEASE_MS, NotificationMailWorker } from '../../apps/api/src/notifications/notification-mail.worker';
import { LivenessWorker } from '../../apps/api/src/system/liveness.worker';
import { NotificationRetentionSweeper } from '../../apps/api/src/notifications/notification-retention.sweeper';
import { aTeam, anAgent, Agent, Team } from '../support/builders';
import { expectError, expectStatus } from '../support/fixtures';
import { MailCatcher, startMailCatcher } from '../support/smtp';
import { SseReader } from '../support/sse';
import { addMember, Client, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Inbox = { notifications: { id: string; kind: string; text: string; read: boolean; actor: { id: string; name: string; kind: string } | null; task: { id: string; key: string; title: string }; project: { id: string; key: string; name: string }; at: string }[]; unread: number; more: boolean };

describe('notifications', () => {
  let t: TestApp;
  let team: Team;
  let assignee: { id: string };

  const inbox = async (who: Person, query = ''): Promise<Inbox> => expectStatus(who.client.get(`/notifications${query}`), 200) as Promise<Inbox>;
  const kinds = async (who: Person) => (await inbox(who)).notifications.map((n) => `${n.kind}:${n.text}`);
  const newTask = async (title: string, body: Record<string, unknown> = {}, as: Client = team.owner.client) =>
    (await expectStatus(as.post(`/projects/${team.project.id}/tasks`, { title, ...body }), 201)).task;
  /** Everyone's inbox emptied, so each test reads only what it made. */
  const clear = () => t.sql.query('DELETE FROM notifications');
  async function claim(agent: Agent, taskId: string): Promise<string> {
    return (await expectStatus(agent.client.post(`/tasks/${taskId}/run`, { goal: 'Work', step: 'look' }), 201)).run.id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    team = await aTeam(t, { key: 'NOT', properties: { Assignee: ['person'], Reviewer: ['person'] } });
    assignee = team.props.Assignee;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(clear);

  describe('assigned: each write path that can put a person into a task makes one', () => {
    it('a create placed after a task (the locked create)', async () => {
      const first = await newTask('First');
      const task = await newTask('Placed', { afterId: first.id, values: { [assignee.id]: team.member.user.id } });
      const [n] = (await inbox(team.member)).notifications;
      expect(n).toMatchObject({ kind: 'assigned', text: 'Assignee', read: false, task: { id: task.id, key: task.key, title: 'Placed' } });
      expect(n.actor).toEqual({ id: team.owner.user.id, name: 'Olive', kind: 'human' });
      expect(n.project).toEqual({ id: team.project.id, key: team.project.key, name: team.project.name });
      expect(Object.keys(n)).toEqual(['id', 'kind', 'at', 'read', 'project', 'task', 'actor', 'text']);
    });

    it('a move with values', async () => {
      const task = await newTask('Moved');
      await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [team.props.Reviewer.id]: team.member.user.id } }), 200);
      expect(await kinds(team.member)).toEqual(['assigned:Reviewer']);
    });

    it('bulk values, one per task', async () => {
      const a = await newTask('Bulk A');
      const b = await newTask('Bulk B');
      await expectStatus(team.owner.client.post(`/projects/${team.project.id}/tasks/values`, { taskIds: [a.id, b.id], propertyId: assignee.id, value: team.member.user.id }), 200);
      expect((await inbox(team.member)).notifications.map((n) => n.task.id).sort()).toEqual([a.id, b.id].sort());
    });

    // The two one-statement hot paths: the notifications ride in the write's own statement, gated on it landing.
    it('a create at the end (hot path)', async () => {
      await newTask('At the end', { values: { [assignee.id]: team.member.user.id } });
      expect(await kinds(team.member)).toEqual(['assigned:Assignee']);
    });
    it('a value write (hot path)', async () => {
      const task = await newTask('Valued');
      await expectStatus(team.owner.client.put(`/tasks/${task.id}/values/${assignee.id}`, { value: team.member.user.id }), 200);
      expect(await kinds(team.member)).toEqual(['assigned:Assignee']);
    });

    it('tells nobody of their own act, nor an agent, nor again when the person stays', async () => {
      const first = await newTask('Self');
      const task = await newTask('Self placed', { afterId: first.id, values: { [assignee.id]: team.owner.user.id } });
      await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [assignee.id]: team.agent.agent.id } }), 200);
      await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [assignee.id]: team.member.user.id } }), 200);
      await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [assignee.id]: team.member.user.id } }), 200);
      expect(await kinds(team.owner)).toEqual([]);
      expect(await kinds(team.member)).toEqual(['assigned:Assignee']);
      expect((await t.sql.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [team.agent.agent.id])).rows[0].n).toBe(0);
    });
  });

  describe('question and run_ended', () => {
    it('tells the task people of a question (not agents), with the question as text', async () => {
      const task = await newTask('Asked', { values: { [assignee.id]: team.member.user.id } });
      await clear();
      const runId = await claim(team.agent, task.id);
      await expectStatus(team.agent.client.patch(`/runs/${runId}`, { status: 'waiting', question: { text: 'Keep the old redirect?' } }), 200);
      const [n] = (await inbox(team.member)).notifications;
      expect(n).toMatchObject({ kind: 'question', text: 'Keep the old redirect?', actor: { id: team.agent.agent.id, name: 'Robo', kind: 'agent' } });
      expect(await kinds(team.owner)).toEqual([]);
    });

    it('tells the owner and admins when the task names nobody; a run that ends tells them `<status>: <step>`', async () => {
      const admin = await registerPerson(t, 'Ada');
      await addMember(team.owner.client, team.project.id, admin, 'admin');
      const task = await newTask('Nobody');
      const runId = await claim(team.agent, task.id);
      await expectStatus(team.agent.client.patch(`/runs/${runId}`, { status: 'waiting', question: { text: 'Who decides?' } }), 200);
      expect(await kinds(team.owner)).toEqual(['question:Who decides?']);
      expect(await kinds(admin)).toEqual(['question:Who decides?']);
      expect(await kinds(team.member)).toEqual([]);
      await clear();
      await expectStatus(team.agent.client.patch(`/runs/${runId}`, { status: 'done', step: 'merged the fix' }), 200);
      expect(await kinds(team.owner)).toEqual(['run_ended:done: merged the fix']);
      await expectStatus(team.owner.client.delete(`/projects/${team.project.id}/members/${admin.user.id}`), 200);
    });

    it('tells of a failed run, not of one handed over', async () => {
      const task = await newTask('Failing', { values: { [assignee.id]: team.member.user.id } });
      const runId = await claim(team.agent, task.id);
      await clear();
      await expectStatus(team.agent.client.patch(`/runs/${runId}`, { status: 'failed', step: 'tests red' }), 200);
      expect(await kinds(team.member)).toEqual(['run_ended:failed: tests red']);
      const other = await newTask('Handed', { values: { [assignee.id]: team.member.user.id } });
      const handed = await claim(team.agent, other.id);
      await clear();
      await expectStatus(team.agent.client.patch(`/runs/${handed}`, { status: 'handed_over', step: 'over to you' }), 200);
      expect(await kinds(team.member)).toEqual([]);
    });
  });

  describe('mention', () => {
    let ann: Person;
    let annLee: Person;
    let otherAnn: Person;

    beforeAll(async () => {
      ann = await registerPerson(t, 'Ann');
      annLee = await registerPerson(t, 'Ann Lee');
      otherAnn = await registerPerson(t, 'ann');
      for (const p of [ann, annLee, otherAnn]) await addMember(team.owner.client, team.project.id, p);
    });
    const comment = async (taskId: string, body: string, as: Client = team.owner.client) =>
      (await expectStatus(as.post(`/tasks/${taskId}/comments`, { body }), 201)).comment;

    it('mentions the longest name that follows an @, every member of that name, with the first 200 characters', async () => {
      const task = await newTask('Mentions');
      const long = `@Ann Lee please look ${'x'.repeat(300)}`;
      await comment(task.id, long);
      expect(await kinds(annLee)).toEqual([`mention:${long.slice(0, 200)}`]);
      expect(await kinds(ann)).toEqual([]);
      await comment(task.id, 'thanks @ANN!');
      expect(await kinds(ann)).toEqual(['mention:thanks @ANN!']);
      expect(await kinds(otherAnn)).toEqual(['mention:thanks @ANN!']);
    });

    it('needs the name to end a word, never tells the author nor an agent', async () => {
      const task = await newTask('Words');
      await comment(task.id, '@Annabel and @Olive and @Robo');
      expect(await kinds(ann)).toEqual([]);
      expect(await kinds(team.owner)).toEqual([]);
      expect((await t.sql.query('SELECT count(*)::int AS n FROM notifications')).rows[0].n).toBe(0);
      await comment(task.id, 'cc @Olive', team.agent.client);
      expect(await kinds(team.owner)).toEqual(['mention:cc @Olive']);
    });

    it('on an edit, tells only the mentions it added', async () => {
      const task = await newTask('Edited');
      const c = await comment(task.id, 'hi @Milo');
      await expectStatus(team.owner.client.patch(`/comments/${c.id}`, { body: 'hi @Milo and @Ann' }), 200);
      expect(await kinds(team.member)).toEqual(['mention:hi @Milo']);
      expect(await kinds(ann)).toEqual(['mention:hi @Milo and @Ann']);
    });
  });

  describe('the inbox', () => {
    it('pages 50 newest first with before, counts unread and says more', async () => {
      const task = await newTask('Many');
      await t.sql.query(
        `INSERT INTO notifications (id, user_id, project_id, task_id, actor_id, kind, text, created_at)
         SELECT gen_random_uuid(), $1, $2, $3, $4, 'assigned', 'Assignee ' || g, now() - g * interval '1 second' FROM generate_series(1, 60) g`,
        [team.member.user.id, team.project.id, task.id, team.owner.user.id],
      );
      const first = await inbox(team.member);
      expect(first.notifications).toHaveLength(50);
      expect(first).toMatchObject({ unread: 60, more: true });
      expect(first.notifications[0].text).toBe('Assignee 1');
      const second = await inbox(team.member, `?before=${first.notifications[49].id}`);
      expect(second.notifications.map((n) => n.text)).toEqual(Array.from({ length: 10 }, (_, i) => `Assignee ${51 + i}`));
      expect(second.more).toBe(false);
      expectError(await team.member.client.get('/notifications?before=nope'), 400, 'That is not a notification id.');
      // Another person's id is no cursor of this inbox.
      expect((await inbox(team.owner, `?before=${first.notifications[0].id}`)).notifications).toEqual([]);
    });

    it('hides deleted tasks (back on restore) and projects the person left', async () => {
      const first = await newTask('Hidden first');
      const task = await newTask('Hidden', { afterId: first.id, values: { [assignee.id]: team.member.user.id } });
      expect(await inbox(team.member)).toMatchObject({ unread: 1 });
      await expectStatus(team.owner.client.delete(`/tasks/${task.id}`), 200);
      expect(await inbox(team.member)).toMatchObject({ notifications: [], unread: 0 });
      await expectStatus(team.owner.client.post(`/tasks/${task.id}/restore`), 200);
      expect(await inbox(team.member)).toMatchObject({ unread: 1 });
      const leaver = await registerPerson(t, 'Leaver');
      await addMember(team.owner.client, team.project.id, leaver);
      await newTask('For the leaver', { afterId: first.id, values: { [assignee.id]: leaver.user.id } });
      expect(await inbox(leaver)).toMatchObject({ unread: 1 });
      await expectStatus(leaver.client.delete(`/projects/${team.project.id}/members/${leaver.user.id}`), 200);
      expect(await inbox(leaver)).toMatchObject({ notifications: [], unread: 0 });
    });

    it('marks read by ids (others ignored) or all, and refuses anything else', async () => {
      const first = await newTask('Read first');
      for (let i = 0; i < 3; i++) await newTask(`Read ${i}`, { afterId: first.id, values: { [assignee.id]: team.member.user.id } });
      const ids = (await inbox(team.member)).notifications.map((n) => n.id);
      const mark = (body: unknown, who: Person = team.member) => who.client.post('/notifications/read', body);
      expect(await expectStatus(mark({ ids: [ids[0]] }, team.owner), 200)).toEqual({ unread: 0 });
      expect(await expectStatus(mark({ ids: [ids[0], randomUUID()] }), 200)).toEqual({ unread: 2 });
      expect((await inbox(team.member)).notifications.find((n) => n.id === ids[0])?.read).toBe(true);
      expectError(await mark({}), 400, 'Name the notifications to mark, or all.');
      expectError(await mark({ all: 'yes' }), 400, 'Name the notifications to mark, or all.');
      expectError(await mark({ ids: 'x' }), 400, 'Name the notifications to mark, or all.');
      expectError(await mark({ ids: Array.from({ length: 201 }, () => randomUUID()) }), 400, 'Mark at most 200 at once.');
      expectError(await mark({ ids: ['nope'] }), 400, 'That is not a notification id.');
      expect(await expectStatus(mark({ all: true }), 200)).toEqual({ unread: 0 });
    });

    it('is for people only', async () => {
      expectError(await team.agent.client.get('/notifications'), 403, 'Only a person can do this.');
      expectError(await team.agent.client.post('/notifications/read', { all: true }), 403, 'Only a person can do this.');
      expect((await new Client(t.api).get('/notifications')).status).toBe(401);
    });
  });

  describe('mailNotifications', () => {
    it('is on by default, shown in every { user } answer, and PATCH /auth/me turns it off', async () => {
      const p = await registerPerson(t, 'Setter');
      expect(p.user).toMatchObject({ mailNotifications: true });
      expect((await expectStatus(p.client.get('/auth/me'), 200)).user.mailNotifications).toBe(true);
      expect((await expectStatus(p.client.patch('/auth/me', { mailNotifications: false }), 200)).user.mailNotifications).toBe(false);
      expect((await expectStatus(p.client.post('/auth/login', { email: p.email, password: p.password }), 200)).user.mailNotifications).toBe(false);
      expectError(await p.client.patch('/auth/me', { mailNotifications: 'no' }), 400, 'Mail notifications is true or false.');
    });
  });

  describe('retention', () => {
    it('removes notifications older than 90 days, in batches', async () => {
      const task = await newTask('Old');
      await t.sql.query(
        `INSERT INTO notifications (id, user_id, project_id, task_id, kind, text, created_at)
         SELECT gen_random_uuid(), $1, $2, $3, 'assigned', 'x', now() - (CASE WHEN g <= 25 THEN 91 ELSE 89 END) * interval '1 day'
           FROM generate_series(1, 30) g`,
        [team.member.user.id, team.project.id, task.id],
      );
      expect(await t.app.get(NotificationRetentionSweeper).sweep(10)).toBe(25);
      expect((await t.sql.query('SELECT count(*)::int AS n FROM notifications')).rows[0].n).toBe(5);
    });
  });
});

describe('notifications: the personal stream across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let team: Team;
  const readers: SseReader[] = [];

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl });
    team = await aTeam(a, { key: 'STR', properties: { Assignee: ['person'] } });
  });
  afterAll(async () => {
    readers.forEach((r) => r.close());
    await b?.close();
    await a?.close();
  });

  const open = async (app: TestApp, who: Person) => {
    const reader = await SseReader.open(`${app.api}/notifications/stream`, { cookie: `service_session=${who.client.cookie}` });
    readers.push(reader);
    expect(reader.status).toBe(200);
    await reader.waitFor((e) => e.event === 'ready');
    return reader;
  };

  it('sends the project stream headers, retry and ready, and each new notification of the person from any instance', async () => {
    const res = await fetch(`${b.api}/notifications/stream`, { headers: { cookie: `service_session=${team.member.client.cookie}` } });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    const body = res.body!.getReader();
    const first = await body.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^retry: 3000\n\n/);
    await body.cancel();

    const mine = await open(b, team.member);
    const owners = await open(b, team.owner);
    const task = (await expectStatus(team.owner.client.post(`/projects/${team.project.id}/tasks`, { title: 'Live' }), 201)).task;
    // Written on instance a, heard on instance b.
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [team.props.Assignee.id]: team.member.user.id } }), 200);
    const [event] = await mine.waitFor((e) => e.event === 'notification');
    const [row] = (await expectStatus(team.member.client.get('/notifications'), 200)).notifications;
    expect(event.data).toEqual({ id: row.id, kind: 'assigned', projectId: team.project.id, taskId: task.id });
    await sleep(200);
    expect(owners.events.filter((e) => e.event === 'notification')).toEqual([]);
  });

  it('is for people only', async () => {
    const res = await fetch(`${a.api}/notifications/stream`, { headers: { authorization: `Bearer ${team.agent.token}` } });
    expect(res.status).toBe(403);
  });

  it('ends within two seconds when the session ends (signed out on the other instance)', async () => {
    const leaver = await registerPerson(a, 'Leaving');
    const stream = await open(a, leaver);
    const endedAt = Date.now();
    const elsewhere = new Client(b.api);
    elsewhere.cookie = leaver.client.cookie;
    await expectStatus(elsewhere.post('/auth/logout'), 200);
    for (let i = 0; i < 40 && !stream.closed; i++) await sleep(50);
    expect(stream.closed).toBe(true);
    expect(Date.now() - endedAt).toBeLessThan(2000);
  });
});

describe('notifications: mail', () => {
  let catcher: MailCatcher;
  let a: TestApp;
  let b: TestApp;
  let team: Team;
  const SERVICE_URL = 'https://board.example.test';

  beforeAll(async () => {
    catcher = await startMailCatcher();
    const env = { SMTP_URL: catcher.url, MAIL_FROM: 'board@example.test', SERVICE_URL, LOG_LEVEL: 'error' };
    a = await startTestApp({ env });
    b = await startTestApp({ env, databaseUrl: a.databaseUrl });
    team = await aTeam(a, { key: 'ML', properties: { Assignee: ['person'] } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await catcher?.close();
  });
  beforeEach(() => {
    catcher.mails.length = 0;
    catcher.refuse = false;
  });

  const newTask = async (title: string, values: Record<string, unknown> = {}) =>
    (await expectStatus(team.owner.client.post(`/projects/${team.project.id}/tasks`, { title, values }), 201)).task;
  const queued = async () => (await a.sql.query('SELECT count(*)::int AS n FROM notification_mails')).rows[0].n as number;

  it('mails a question with the decided subject, its text and a link to the task', async () => {
    const task = await newTask('Mailed question');
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/move`, { values: { [team.props.Assignee.id]: team.member.user.id } }), 200);
    const runId = (await expectStatus(team.agent.client.post(`/tasks/${task.id}/run`, { goal: 'Work' }), 201)).run.id;
    await expectStatus(team.agent.client.patch(`/runs/${runId}`, { status: 'waiting', question: { text: 'Ship on Friday?' } }), 200);
    const [mail] = await catcher.waitFor(1);
    expect(mail.to).toEqual([team.member.email]);
    expect(mail.subject).toBe(`${task.key}: Robo asks`);
    expect(mail.text).toContain('Ship on Friday?');
    expect(mail.text).toContain(`${SERVICE_URL}/p/${team.project.id}?task=${task.id}`);
    // assigned is not mailed.
    await sleep(300);
    expect(catcher.mails).toHaveLength(1);
    expect(await queued()).toBe(0);
  });

  it('mails a mention; not to a person who turned mail off', async () => {
    const task = await newTask('Mailed mention');
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/comments`, { body: 'look @Milo' }), 201);
    const [mail] = await catcher.waitFor(1);
    expect(mail.subject).toBe(`Olive mentioned you on ${task.key}`);
    expect(mail.text).toContain('look @Milo');
    catcher.mails.length = 0;
    await expectStatus(team.member.client.patch('/auth/me', { mailNotifications: false }), 200);
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/comments`, { body: 'again @Milo' }), 201);
    await sleep(500);
    expect(catcher.mails).toHaveLength(0);
    expect((await expectStatus(team.member.client.get('/notifications'), 200)).notifications[0].text).toBe('again @Milo');
    await expectStatus(team.member.client.patch('/auth/me', { mailNotifications: true }), 200);
  });

  it('a relay that refuses neither fails nor slows the write; the mail is tried again', async () => {
    catcher.refuse = true;
    const task = await newTask('Refused');
    const started = Date.now();
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/comments`, { body: 'hey @Milo' }), 201);
    expect(Date.now() - started).toBeLessThan(1000);
    await sleep(500);
    expect(await queued()).toBe(1);
    catcher.refuse = false;
    await a.sql.query('UPDATE notification_mails SET due_at = now()');
    await a.app.get(NotificationMailWorker).sweep();
    await catcher.waitFor(1);
    // The other instance's own sweep may have sent it while this one found it claimed: the row
    // goes once that sender has settled, a moment after the relay accepted.
    const settled = Date.now() + 5000;
    while ((await queued()) > 0 && Date.now() < settled) await sleep(50);
    expect(await queued()).toBe(0);
    expect(catcher.mails).toHaveLength(1);
  });

  it('a sender that dies holding a mail leaves it to another instance within seconds, sent once', async () => {
    const workerA = a.app.get(NotificationMailWorker);
    const workerB = b.app.get(NotificationMailWorker);
    // Both instances stop hearing notices: the test drives them.
    workerA.onModuleDestroy();
    workerB.onModuleDestroy();
    const task = await newTask('Dying sender');
    await expectStatus(team.owner.client.post(`/tasks/${task.id}/comments`, { body: 'ping @Milo' }), 201);
    // Instance a claims the mail, with the whole lease of a live sender, and dies before sending it.
    const holder = a.app.get(Liveness).claimant()!;
    const claimed = await a.app.get(NotificationMailOutbox).claim(new Date(), MAIL_LEASE_MS, 10, holder);
    expect(claimed).toHaveLength(1);
    // While a lives, nobody else sends it.
    expect(await workerB.sendBatch()).toBe(0);
    a.app.get(LivenessWorker).stopBeating();
    const died = Date.now();
    let sent = 0;
    while (sent === 0 && Date.now() - died < 15_000) {
      await sleep(100);
      sent = await workerB.sendBatch();
    }
    expect(sent).toBe(1);
    expect(Date.now() - died).toBeLessThan(10_000);
    const [mail] = await catcher.waitFor(1);
    expect(mail.subject).toBe(`Olive mentioned you on ${task.key}`);
    expect(await workerB.sendBatch()).toBe(0);
    // The dead sender's late settle no longer holds the lease: nothing changes.
    await a.app.get(NotificationMailOutbox).sent(claimed[0]);
    await sleep(200);
    expect(catcher.mails).toHaveLength(1);
    expect(await queued()).toBe(0);
  });
});
