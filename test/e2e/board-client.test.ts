/**
 * The typed client (libs/client) against a real instance: both credential modes, typed refusals
 * (status and the contract's sentence), a network failure, the work queue, a question answered and
 * usage read, the project stream as an async iterator that reconnects after a cut and says `ready`
 * again, and verifyWebhook on a real signed delivery.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BoardApiError, BoardClient, type StreamEvent, verifyWebhook } from '@board/client';
import { createAgent, registerPerson, startTestApp, TestApp, uniqueEmail } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function refusal(work: Promise<unknown>): Promise<BoardApiError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof BoardApiError)) throw new Error(`expected a BoardApiError, got ${String(error)}`);
  return error;
}

/** Pulls events from an iterator into a list a test can wait on. */
function collect(iterator: AsyncGenerator<StreamEvent>) {
  const events: StreamEvent[] = [];
  let failure: unknown = null;
  const done = (async () => {
    try {
      for await (const event of iterator) events.push(event);
    } catch (error) {
      failure = error;
    }
  })();
  return {
    events,
    done,
    get failure() {
      return failure;
    },
    async waitFor(match: (e: StreamEvent) => boolean, count = 1, ms = 8000): Promise<StreamEvent[]> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.filter(match);
        if (found.length >= count) return found;
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(events)}`);
        await sleep(20);
      }
    },
  };
}

describe('the typed client', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_WEBHOOK_ALLOW: '127.0.0.1' } });
    base = t.api.replace(/\/api$/, '');
  });
  afterAll(async () => t?.close());

  it('keeps a person’s session cookie from register to logout, and answers refusals typed', async () => {
    const person = new BoardClient({ baseUrl: base });
    const email = uniqueEmail('client');
    const user = await person.register(email, 'Casey', 'correct horse');
    expect(user).toMatchObject({ email, name: 'Casey' });
    expect((await person.me()).id).toBe(user.id);
    const { project } = await person.call(person.api.POST('/api/projects', { body: { name: 'Client project', key: 'CLI' } }));
    expect(project.key).toBe('CLI');
    const clash = await refusal(person.call(person.api.POST('/api/projects', { body: { name: 'Again', key: 'CLI' } })));
    expect([clash.status, clash.message]).toEqual([409, 'Another project already uses the key CLI.']);

    await person.logout();
    const out = await refusal(person.me());
    expect([out.status, out.message, out.body]).toEqual([401, 'Sign in first, or send an agent token.', { error: 'Sign in first, or send an agent token.' }]);

    const again = new BoardClient({ baseUrl: `${base}/api/` });
    expect((await again.login(email, 'correct horse')).id).toBe(user.id);
    expect((await again.board(project.id)).project.role).toBe('owner');
    const wrong = await refusal(new BoardClient({ baseUrl: base }).login(email, 'not the password'));
    expect([wrong.status, wrong.message]).toEqual([401, 'That email and password do not match.']);
  });

  it('works an agent’s run with its bearer token and sees a person’s control word', async () => {
    const owner = await registerPerson(t, 'Olive');
    const { project } = (await owner.client.post('/projects', { name: 'Agent work', key: 'AGW' })).body;
    const { token, agent } = await createAgent(owner.client, project.id, 'Robo');
    const robot = new BoardClient({ baseUrl: base, token, clientId: 'robot-1' });
    const me = await robot.agentMe();
    expect(me).toEqual({ agent: { id: agent.id, name: 'Robo', color: agent.color, emoji: null }, project: { id: project.id, name: 'Agent work', key: 'AGW', role: 'member', waiting: 0 } });

    const { task } = await robot.call(robot.api.POST('/api/projects/{projectId}/tasks', { params: { path: { projectId: project.id } }, body: { title: 'Do it' } }));
    const run = await robot.claim(task.id, { goal: 'Ship it', steps: ['read', 'write'] });
    expect(run).toMatchObject({ status: 'running', goal: 'Ship it', step: 'read', control: null });
    const twice = await refusal(robot.claim(task.id, { goal: 'again' }));
    expect([twice.status, twice.message]).toEqual([409, 'Another run is already open on this task.']);

    expect((await robot.report(run.id, { stepIndex: 1, log: 'reading done' })).run.stepsDone).toBe(1);
    await owner.client.post(`/runs/${run.id}/control`, { control: 'pause' });
    expect((await robot.beat(run.id)).control).toBe('pause');
    const person = await refusal(robot.me());
    expect(person.status).toBe(401); // auth routes ignore bearer tokens
    const gate = await refusal(robot.control(run.id, 'stop'));
    expect([gate.status, gate.message]).toEqual([403, 'Only a person can do this.']);

    expect((await robot.rules(project.id)).text).toBe('');

    const revoked = new BoardClient({ baseUrl: base, token: 'svc_' + 'x'.repeat(43) });
    const bad = await refusal(revoked.agentMe());
    expect([bad.status, bad.message]).toEqual([401, 'That token is not valid any more.']);
  });

  it('takes the next task of the queue, asks and reads a person’s answer, and reads usage', async () => {
    const owner = await registerPerson(t, 'Olive');
    const { project } = (await owner.client.post('/projects', { name: 'Queue work', key: 'QWK' })).body;
    const { token } = await createAgent(owner.client, project.id, 'Robo');
    const robot = new BoardClient({ baseUrl: base, token });
    const person = new BoardClient({ baseUrl: base });
    await person.login(owner.user.email, 'correct horse');
    expect(await robot.next(project.id)).toEqual({ run: null, task: null });

    await owner.client.post(`/projects/${project.id}/tasks`, { title: 'First' });
    const taken = await robot.next(project.id, { goal: 'Queue', steps: ['a'] });
    expect(taken.task?.title).toBe('First');
    const runId = taken.run!.id;
    await robot.report(runId, { status: 'waiting', question: { text: 'Which?', options: ['x', 'y'] }, usage: { inputTokens: 7, costMicros: 100 } });
    const answered = await person.answer(runId, ['y']);
    expect(answered.question?.answer).toMatchObject({ text: 'y', choices: ['y'], by: { name: 'Olive' } });
    const refused = await refusal(person.answer(runId, ['x']));
    expect([refused.status, refused.message]).toEqual([409, 'That run has no open question.']);

    const usage = await robot.usage(project.id);
    expect(usage.total).toEqual({ inputTokens: 7, outputTokens: 0, costMicros: 100, runs: 1 });
    expect(usage.agents.map((a) => a.agent.name)).toEqual(['Robo']);
    const badDay = await refusal(robot.usage(project.id, { from: 'soon' }));
    expect(badDay.status).toBe(400);
  });

  it('says so when the service cannot be reached', async () => {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((ok) => server.close(() => ok()));
    const error = await refusal(new BoardClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'svc_x' }).agentMe());
    expect(error.status).toBe(0);
    expect(error.network).toBe(true);
    expect(error.message).toMatch(/^Could not reach the board service: /);
  });

  it('streams typed events, reconnects after a cut and says ready again', async () => {
    const owner = await registerPerson(t, 'Sam');
    const { project } = (await owner.client.post('/projects', { name: 'Streamed', key: 'STR' })).body;
    const { token } = await createAgent(owner.client, project.id, 'Watcher');
    // A fetch that lets the test cut the live connection, as a network drop would.
    const cuts: (() => void)[] = [];
    const cuttable: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      const reader = response.body.getReader();
      let cut!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cut = () => {
            controller.error(new Error('cut'));
            void reader.cancel();
          };
        },
        async pull(controller) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      cuts.push(cut);
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const watcher = new BoardClient({ baseUrl: base, token, fetch: cuttable });
    const stop = new AbortController();
    const drops: (BoardApiError | null)[] = [];
    const stream = collect(watcher.stream(project.id, { signal: stop.signal, onDisconnect: (e) => drops.push(e) }));
    await stream.waitFor((e) => e.type === 'ready');

    const created = (await owner.client.post(`/projects/${project.id}/tasks`, { title: 'One' }, { headers: { 'x-service-client': 'tab-7' } })).body.task;
    const [change] = await stream.waitFor((e) => e.type === 'change');
    expect(change).toEqual({ type: 'change', data: { projectId: project.id, scope: 'board', clientId: 'tab-7' } });
    await owner.client.post(`/projects/${project.id}/presence`, { clientId: 'tab-7', taskId: created.id, field: 'title' });
    const [presence] = await stream.waitFor((e) => e.type === 'presence');
    expect(presence).toEqual({ type: 'presence', data: { projectId: project.id, kind: 'presence', clientId: 'tab-7', userId: owner.user.id, taskId: created.id, field: 'title' } });

    cuts[0]();
    await stream.waitFor((e) => e.type === 'ready', 2, 10_000);
    expect(cuts).toHaveLength(2);
    expect(drops).toHaveLength(1);
    expect(drops[0]?.network).toBe(true);
    await owner.client.patch(`/tasks/${created.id}`, { title: 'One, renamed' });
    const after = await stream.waitFor((e) => e.type === 'change', 2);
    expect(after[1]).toEqual({ type: 'change', data: { projectId: project.id, scope: 'task', taskId: created.id, clientId: null } });
    // The client's own writes carry its x-service-client tag, so a UI can skip their echo.
    await watcher.call(watcher.api.POST('/api/projects/{projectId}/tasks', { params: { path: { projectId: project.id } }, body: { title: 'Mine' } }));
    const own = await stream.waitFor((e) => e.type === 'change', 3);
    expect(own[2]).toEqual({ type: 'change', data: { projectId: project.id, scope: 'board', clientId: watcher.clientId } });
    stop.abort();
    await stream.done;
    expect(stream.failure).toBeNull();
  }, 30_000);

  it('ends the iteration with the refusal when the stream is not allowed', async () => {
    const owner = await registerPerson(t, 'Ned');
    const { project } = (await owner.client.post('/projects', { name: 'Closed', key: 'CLO' })).body;
    const stranger = new BoardClient({ baseUrl: base });
    await stranger.register(uniqueEmail('stranger'), 'Stranger', 'correct horse');
    const stream = collect(stranger.stream(project.id));
    await stream.done;
    expect(stream.failure).toBeInstanceOf(BoardApiError);
    expect([(stream.failure as BoardApiError).status, (stream.failure as BoardApiError).message]).toEqual([404, 'Project not found.']);
  });

  describe('verifyWebhook on a real delivery', () => {
    let receiver: Server;
    const hits: { headers: IncomingMessage['headers']; raw: Buffer }[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          hits.push({ headers: req.headers, raw: Buffer.concat(chunks) });
          res.writeHead(200).end('thanks');
        });
      });
      await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    });
    afterAll(async () => new Promise<void>((ok) => receiver.close(() => ok())));

    it('accepts the genuine delivery and refuses a changed body, another secret or an old timestamp', async () => {
      const person = new BoardClient({ baseUrl: base });
      await person.register(uniqueEmail('hooks'), 'Hana', 'correct horse');
      const { project } = await person.call(person.api.POST('/api/projects', { body: { name: 'Hooked', key: 'HKD' } }));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { webhook, secret } = await person.call(
        person.api.POST('/api/projects/{projectId}/webhooks', { params: { path: { projectId: project.id } }, body: { url, kinds: ['created'] } }),
      );
      expect(webhook.secretPrefix).toBe(secret.slice(0, 9));
      await person.call(person.api.POST('/api/projects/{projectId}/tasks', { params: { path: { projectId: project.id } }, body: { title: 'Ring' } }));
      const deadline = Date.now() + 8000;
      while (!hits.length && Date.now() < deadline) await sleep(25);
      const [hit] = hits;
      expect(hit).toBeDefined();

      const verdict = await verifyWebhook({ secret, headers: hit.headers, rawBody: hit.raw });
      expect(verdict).toEqual({ ok: true, deliveryId: JSON.parse(hit.raw.toString()).delivery, timestamp: Number(hit.headers['x-service-timestamp']) });
      expect(await verifyWebhook({ secret, headers: hit.headers, rawBody: hit.raw.toString('utf8') })).toMatchObject({ ok: true });
      const changed = Buffer.from(hit.raw.toString().replace('"created"', '"deleted"'));
      expect(await verifyWebhook({ secret, headers: hit.headers, rawBody: changed })).toEqual({ ok: false, reason: 'bad_signature' });
      expect(await verifyWebhook({ secret: `${secret}x`, headers: hit.headers, rawBody: hit.raw })).toEqual({ ok: false, reason: 'bad_signature' });
      const signedAt = Number(hit.headers['x-service-timestamp']) * 1000;
      expect(await verifyWebhook({ secret, headers: hit.headers, rawBody: hit.raw, now: signedAt + 301_000 })).toEqual({ ok: false, reason: 'stale_timestamp' });
      expect(await verifyWebhook({ secret, headers: hit.headers, rawBody: hit.raw, now: new Date(signedAt + 299_000) })).toMatchObject({ ok: true });
      expect(await verifyWebhook({ secret, headers: hit.headers, rawBody: hit.raw, now: signedAt + 61_000, toleranceSeconds: 60 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    });
  });
});
