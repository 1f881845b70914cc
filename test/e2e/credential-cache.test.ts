/**
 * Each instance reuses a credential check's answer for a few seconds (SERVICE_CREDENTIAL_CACHE_MS,
 * 5 s by default: longer than any wait below, so a pass on the other instance proves its notice,
 * not the time), and a revocation still ends access at once: on the instance that made it before
 * its next request, on the others as soon as the database's notice reaches them (well within a
 * second). Two instances on one database; every credential is first used on both, so both hold
 * its answer.
 */
import { CredentialQuery, PgNotificationListener } from '@board/persistence';
import { tokenIdOf } from '../support/builders-d';
import { expectStatus } from '../support/fixtures';
import { addMember, Answer, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('credential checks kept per instance', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Person;
  let projects = 0;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl });
    owner = await registerPerson(a, 'Owner');
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  /** The same signed-in person or agent, calling instance `t`. */
  const on = (t: TestApp, c: Client): Client => {
    const other = new Client(t.api);
    other.cookie = c.cookie;
    other.token = c.token;
    return other;
  };

  /** Credential checks instance `t` asked of the database while `work` ran. */
  async function checksAskedOn(t: TestApp, work: () => Promise<unknown>): Promise<number> {
    const query = t.app.get(CredentialQuery);
    const session = jest.spyOn(query, 'personBySession');
    const token = jest.spyOn(query, 'agentByToken');
    try {
      await work();
      return session.mock.calls.length + token.mock.calls.length;
    } finally {
      session.mockRestore();
      token.mockRestore();
    }
  }

  /** Asks `path` as `who` on both instances, twice: the second answer of each is the kept one. */
  async function warm(who: Client, path: string): Promise<void> {
    for (const t of [a, b]) {
      await expectStatus(on(t, who).get(path), 200);
      expect(await checksAskedOn(t, () => expectStatus(on(t, who).get(path), 200))).toBe(0);
    }
  }

  /** Polls `ask` until it answers `status`, for at most `ms`; answers the last answer. */
  async function within(ms: number, status: number, ask: () => Promise<Answer>): Promise<Answer> {
    const deadline = Date.now() + ms;
    let answer = await ask();
    while (answer.status !== status && Date.now() < deadline) {
      await sleep(20);
      answer = await ask();
    }
    return answer;
  }

  async function project() {
    return createProject(owner.client, 'Kept', `K${++projects}`);
  }

  it('a revoked agent token is refused at once on its instance and within a second on the other', async () => {
    const p = await project();
    const agent = await createAgent(owner.client, p.id);
    await warm(agent.client, `/projects/${p.id}/rules`);
    const tokenId = await tokenIdOf(owner.client, p.id, agent.agent.id);
    await expectStatus(on(a, owner.client).delete(`/projects/${p.id}/tokens/${tokenId}`), 200);
    const onA = await on(a, agent.client).get(`/projects/${p.id}/rules`);
    expect(onA.status).toBe(401);
    const onB = await within(1000, 401, () => on(b, agent.client).get(`/projects/${p.id}/rules`));
    expect([onB.status, onB.body]).toEqual([401, onA.body]);
  });

  it('a session signed out is refused at once on its instance and within a second on the other', async () => {
    const person = await registerPerson(a, 'Leaving');
    await warm(person.client, '/auth/me');
    const kept = on(a, person.client);
    await expectStatus(person.client.post('/auth/logout'), 200);
    const onA = await kept.get('/auth/me');
    expect(onA.status).toBe(401);
    const onB = await within(1000, 401, () => on(b, kept).get('/auth/me'));
    expect([onB.status, onB.body]).toEqual([401, onA.body]);
  });

  it('a member removed is refused at once on its instance and within a second on the other', async () => {
    const p = await project();
    const member = await registerPerson(a, 'Removed');
    await addMember(owner.client, p.id, member);
    await warm(member.client, `/projects/${p.id}/rules`);
    await expectStatus(on(a, owner.client).delete(`/projects/${p.id}/members/${member.user.id}`), 200);
    const onA = await on(a, member.client).get(`/projects/${p.id}/rules`);
    expect(onA.status).toBe(404);
    const onB = await within(1000, 404, () => on(b, member.client).get(`/projects/${p.id}/rules`));
    expect([onB.status, onB.body]).toEqual([404, onA.body]);
  });

  it('an admin made a plain member loses the admin routes at once on its instance and within a second on the other', async () => {
    const p = await project();
    const admin = await registerPerson(a, 'Demoted');
    await addMember(owner.client, p.id, admin, 'admin');
    await warm(admin.client, `/projects/${p.id}/tokens`);
    await expectStatus(on(a, owner.client).patch(`/projects/${p.id}/members/${admin.user.id}`, { role: 'member' }), 200);
    const onA = await on(a, admin.client).get(`/projects/${p.id}/tokens`);
    expect(onA.status).toBe(403);
    const onB = await within(1000, 403, () => on(b, admin.client).get(`/projects/${p.id}/tokens`));
    expect([onB.status, onB.body]).toEqual([403, onA.body]);
    // Still a member: the member routes answer.
    await expectStatus(on(b, admin.client).get(`/projects/${p.id}/rules`), 200);
  });

  it('a deleted task is refused as before, at once on its instance and within a second on the other', async () => {
    const p = await project();
    const { task } = await expectStatus(owner.client.post(`/projects/${p.id}/tasks`, { title: 'Going' }), 201);
    const never = await expectStatus(owner.client.post(`/projects/${p.id}/tasks`, { title: 'Never asked for' }), 201);
    await warm(owner.client, `/tasks/${task.id}`);
    await expectStatus(on(a, owner.client).delete(`/tasks/${task.id}`), 200);
    await expectStatus(on(a, owner.client).delete(`/tasks/${never.task.id}`), 200);
    // The refusal of a deleted task that no instance had kept an answer for.
    const before = await on(a, owner.client).get(`/tasks/${never.task.id}`);
    expect(before.status).toBe(404);
    const onA = await on(a, owner.client).get(`/tasks/${task.id}`);
    expect([onA.status, onA.body]).toEqual([404, before.body]);
    const onB = await within(1000, 404, () => on(b, owner.client).get(`/tasks/${task.id}`));
    expect([onB.status, onB.body]).toEqual([404, before.body]);
  });

  it('a renamed person’s next write carries the new name, on either instance', async () => {
    const p = await project();
    const person = await registerPerson(a, 'Old Name');
    await addMember(owner.client, p.id, person);
    const agent = await createAgent(owner.client, p.id, 'Asker');
    const { task } = await expectStatus(owner.client.post(`/projects/${p.id}/tasks`, { title: 'Asked' }), 201);
    const { run } = await expectStatus(agent.client.post(`/tasks/${task.id}/run`, { goal: 'Ask' }), 201);
    await warm(person.client, `/tasks/${task.id}`);
    /** The agent waits on a question; `who` answers it in a comment through `t`: the run's log names them. */
    const answeredBy = async (t: TestApp) => {
      await expectStatus(agent.client.patch(`/runs/${run.id}`, { status: 'waiting' }), 200);
      await expectStatus(on(t, person.client).post(`/tasks/${task.id}/comments`, { body: 'Here you are' }), 201);
      return (await expectStatus(owner.client.get(`/runs/${run.id}`), 200)).run.lastLog;
    };
    expect(await answeredBy(a)).toBe('Old Name answered in a comment.');

    await expectStatus(on(a, person.client).patch('/auth/me', { name: 'New Name' }), 200);
    expect(await answeredBy(a)).toBe('New Name answered in a comment.');
    await expectStatus(agent.client.patch(`/runs/${run.id}`, { status: 'running' }), 200);
    await sleep(500);
    expect(await answeredBy(b)).toBe('New Name answered in a comment.');
  });

  it('an instance forgets what its own commit revoked before its notice comes round', async () => {
    // Instance A's notices are held back (as on a slow listening connection): only its own
    // commits can tell it. Without that, A would let the revoked token in for seconds.
    const listener = a.app.get(PgNotificationListener) as unknown as { deliver(channel: string, payload: string | undefined): void };
    const deliver = listener.deliver;
    const held: Array<[string, string | undefined]> = [];
    listener.deliver = (channel, payload) => void held.push([channel, payload]);
    try {
      const p = await project();
      const agent = await createAgent(owner.client, p.id);
      const member = await registerPerson(a, 'Held');
      await addMember(owner.client, p.id, member, 'admin');
      await warm(agent.client, `/projects/${p.id}/rules`);
      await warm(member.client, `/projects/${p.id}/tokens`);
      const tokenId = await tokenIdOf(owner.client, p.id, agent.agent.id);
      await expectStatus(on(a, owner.client).delete(`/projects/${p.id}/tokens/${tokenId}`), 200);
      expect((await on(a, agent.client).get(`/projects/${p.id}/rules`)).status).toBe(401);
      await expectStatus(on(a, owner.client).patch(`/projects/${p.id}/members/${member.user.id}`, { role: 'member' }), 200);
      expect((await on(a, member.client).get(`/projects/${p.id}/tokens`)).status).toBe(403);
      await expectStatus(on(a, owner.client).delete(`/projects/${p.id}/members/${member.user.id}`), 200);
      expect((await on(a, member.client).get(`/projects/${p.id}/rules`)).status).toBe(404);
      // The notices did ring: they were held, not missing.
      expect(held.map(([channel]) => channel)).toEqual(expect.arrayContaining(['board_access', 'board_credentials']));
    } finally {
      listener.deliver = deliver;
      for (const [channel, payload] of held) deliver.call(listener, channel, payload);
    }
  });

  it('keeps nothing while the listening connection is away', async () => {
    const p = await project();
    const member = await registerPerson(a, 'Unheard');
    await addMember(owner.client, p.id, member);
    await warm(member.client, `/projects/${p.id}/rules`);
    const listener = b.app.get(PgNotificationListener);
    await listener.dropConnectionForTest();
    // Until it is back and has said `reconnected`, B asks the database every time.
    const deadline = Date.now() + 2000;
    while (listener.listening && Date.now() < deadline) await sleep(5);
    expect(listener.listening).toBe(false);
    expect(await checksAskedOn(b, () => expectStatus(on(b, member.client).get(`/projects/${p.id}/rules`), 200))).toBe(1);
    expect(await checksAskedOn(b, () => expectStatus(on(b, member.client).get(`/projects/${p.id}/rules`), 200))).toBe(1);
    while (!listener.listening && Date.now() < deadline + 5000) await sleep(20);
    expect(listener.listening).toBe(true);
    await expectStatus(on(b, member.client).get(`/projects/${p.id}/rules`), 200);
    expect(await checksAskedOn(b, () => expectStatus(on(b, member.client).get(`/projects/${p.id}/rules`), 200))).toBe(0);
  });
});
