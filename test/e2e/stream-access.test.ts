/**
 * A stream ends when its access ends (decisions.md › Security): within two seconds of the
 * credential that opened it losing access to the project, on whichever instance it is open, and
 * nothing written after the access change reaches it. Streams are opened on instance A; every
 * access change is made through instance B (or in SQL, for expiry).
 */
import { randomUUID } from 'node:crypto';
import { SseReader } from '../support/sse';
import { tokenIdOf } from '../support/builders-d';
import { expectStatus } from '../support/fixtures';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('streams end with their access', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Person;
  const readers: SseReader[] = [];
  let projects = 0;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl });
    owner = await registerPerson(a, 'Owner');
  });
  afterAll(async () => {
    for (const r of readers) r.close();
    await b.close();
    await a.close();
  });

  /** The same signed-in person or agent, calling instance B. */
  const onB = (c: Client): Client => {
    const other = new Client(b.api);
    other.cookie = c.cookie;
    other.token = c.token;
    return other;
  };

  async function open(pid: string, as: Client): Promise<SseReader> {
    const headers: Record<string, string> = {};
    if (as.cookie) headers.cookie = `service_session=${as.cookie}`;
    if (as.token) headers.authorization = `Bearer ${as.token}`;
    const reader = await SseReader.open(`${a.api}/projects/${pid}/stream`, headers);
    readers.push(reader);
    expect(reader.status).toBe(200);
    await reader.waitFor((e) => e.event === 'ready');
    return reader;
  }

  async function waitClosed(reader: SseReader, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!reader.closed && Date.now() < deadline) await sleep(20);
  }

  /** A project of the owner with `who` in it, a stream of `who` and a stream of the owner beside it. */
  async function setUp(who?: Person) {
    const project = await createProject(owner.client, 'Watched', `W${++projects}`);
    if (who) await addMember(owner.client, project.id, who);
    const bystander = await open(project.id, owner.client);
    return { project, bystander };
  }

  /**
   * Makes the access change, then at once a write in the project (through A, where the stream is):
   * the stream must end within two seconds of the change and see nothing after it, while the
   * owner's stream beside it sees the write (so the write did ring). `writer` makes the write when
   * the owner can no longer (a deleted project): then only the ending is checked.
   */
  async function expectEnds(stream: SseReader, bystander: SseReader | null, pid: string, change: () => Promise<unknown>): Promise<void> {
    // Notices arrive in commit order: once this write reached the stream, everything before it has.
    const before = `before-${randomUUID()}`;
    await expectStatus(owner.client.post(`/projects/${pid}/tasks`, { title: 'Before the change' }, { headers: { 'x-service-client': before } }), 201);
    await stream.waitFor((e) => e.event === 'change' && e.data?.clientId === before);
    const seen = stream.events.length;
    await change();
    const changedAt = Date.now();
    const clientId = `after-${randomUUID()}`;
    if (bystander) {
      await expectStatus(owner.client.post(`/projects/${pid}/tasks`, { title: 'After the change' }, { headers: { 'x-service-client': clientId } }), 201);
    }
    await waitClosed(stream, 2000);
    expect(stream.closed).toBe(true);
    expect(Date.now() - changedAt).toBeLessThan(2000);
    if (bystander) await bystander.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
    expect(stream.events.slice(seen).filter((e) => e.event === 'change' || e.event === 'presence')).toEqual([]);
    expect(bystander?.closed ?? false).toBe(false);
  }

  it('ends the stream of a member who is removed', async () => {
    const member = await registerPerson(a, 'Removed');
    const { project, bystander } = await setUp(member);
    const stream = await open(project.id, member.client);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(owner.client).delete(`/projects/${project.id}/members/${member.user.id}`), 200));
  });

  it('ends the stream of a member who leaves', async () => {
    const member = await registerPerson(a, 'Leaver');
    const { project, bystander } = await setUp(member);
    const stream = await open(project.id, member.client);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(member.client).delete(`/projects/${project.id}/members/${member.user.id}`), 200));
  });

  it('ends every stream of a deleted project', async () => {
    const member = await registerPerson(a, 'Bystander');
    const { project, bystander } = await setUp(member);
    const stream = await open(project.id, member.client);
    await expectEnds(stream, null, project.id, () => expectStatus(onB(owner.client).delete(`/projects/${project.id}`), 200));
    await waitClosed(bystander, 2000);
    expect(bystander.closed).toBe(true);
  });

  it('ends the stream of a session that logs out, and only that one', async () => {
    const member = await registerPerson(a, 'Logout');
    const { project, bystander } = await setUp(member);
    const otherSession = new Client(a.api);
    await expectStatus(otherSession.post('/auth/login', { email: member.email, password: member.password }), 200);
    const kept = await open(project.id, otherSession);
    const stream = await open(project.id, member.client);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(member.client).post('/auth/logout'), 200));
    // The person's other session keeps its stream, and gets the write it held meanwhile.
    await kept.waitFor((e) => e.event === 'change' && String(e.data?.clientId).startsWith('after-'));
    expect(kept.closed).toBe(false);
  });

  it('ends the streams of the other sessions on a password change', async () => {
    const member = await registerPerson(a, 'Changer');
    const { project, bystander } = await setUp(member);
    const second = new Client(a.api);
    await expectStatus(second.post('/auth/login', { email: member.email, password: member.password }), 200);
    const stream = await open(project.id, second);
    const own = await open(project.id, member.client);
    await expectEnds(stream, bystander, project.id, () =>
      expectStatus(onB(member.client).post('/auth/password', { current: member.password, next: 'another horse' }), 200),
    );
    expect(own.closed).toBe(false);
  });

  it('ends the streams of every session on a reset', async () => {
    const member = await registerPerson(a, 'Reset');
    const { project, bystander } = await setUp(member);
    const stream = await open(project.id, member.client);
    const { token } = await expectStatus(onB(owner.client).post(`/projects/${project.id}/members/${member.user.id}/reset`), 200);
    await expectEnds(stream, bystander, project.id, () => expectStatus(new Client(b.api).post('/auth/reset', { token, password: 'brand new horse' }), 200));
  });

  it('ends the streams of the other sessions on DELETE /api/auth/sessions', async () => {
    const member = await registerPerson(a, 'Ender');
    const { project, bystander } = await setUp(member);
    const second = new Client(a.api);
    await expectStatus(second.post('/auth/login', { email: member.email, password: member.password }), 200);
    const stream = await open(project.id, second);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(member.client).delete('/auth/sessions'), 200));
  });

  it('ends the stream of a session when it expires', async () => {
    const member = await registerPerson(a, 'Expiring');
    const { project, bystander } = await setUp(member);
    // The session runs out 1.5 s from now: no write, no notice, only the clock.
    // A forced clock: a session's expiry cannot come within a test otherwise.
    const { rows } = await a.sql.query(`UPDATE sessions SET expires_at = now() + interval '1500 milliseconds' WHERE user_id = $1 RETURNING expires_at`, [member.user.id]);
    const stream = await open(project.id, member.client);
    await expectEnds(stream, bystander, project.id, () => sleep(rows[0].expires_at.getTime() - Date.now() + 20));
  });

  it('ends the stream of a revoked agent token', async () => {
    const { project, bystander } = await setUp();
    const { client, agent } = await createAgent(owner.client, project.id);
    const stream = await open(project.id, client);
    const tokenId = await tokenIdOf(owner.client, project.id, agent.id);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(owner.client).delete(`/projects/${project.id}/tokens/${tokenId}`), 200));
  });

  it('ends the stream of a removed agent', async () => {
    const { project, bystander } = await setUp();
    const { client, agent } = await createAgent(owner.client, project.id);
    const stream = await open(project.id, client);
    await expectEnds(stream, bystander, project.id, () => expectStatus(onB(owner.client).delete(`/projects/${project.id}/agents/${agent.id}`), 200));
  });

  it('keeps streams whose access stands: a role change, another member removed', async () => {
    const member = await registerPerson(a, 'Stays');
    const other = await registerPerson(a, 'Goes');
    const { project, bystander } = await setUp(member);
    await addMember(owner.client, project.id, other);
    const stream = await open(project.id, member.client);
    await expectStatus(onB(owner.client).patch(`/projects/${project.id}/members/${member.user.id}`, { role: 'admin' }), 200);
    await expectStatus(onB(owner.client).delete(`/projects/${project.id}/members/${other.user.id}`), 200);
    await sleep(1500);
    const clientId = `still-${randomUUID()}`;
    await expectStatus(owner.client.post(`/projects/${project.id}/tasks`, { title: 'Still here' }, { headers: { 'x-service-client': clientId } }), 201);
    await stream.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId);
    expect(stream.closed).toBe(false);
    expect(bystander.closed).toBe(false);
  });
});
