/**
 * Webhooks end to end (interface.md › Events › Webhooks, Webhook routes; decisions.md › Webhooks,
 * SERVICE_WEBHOOK_ALLOW): the routes and their gates, deliveries to a real receiver on 127.0.0.1
 * verified the way a receiver must, which writes ring and which do not, the retry schedule on a
 * clock the test drives, redirects and time limits, the last 20 kept, no delivery sent twice by
 * two workers, and the address rules at send time.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { OffsetClock } from '../support/in-memory/clock';
import { DeliveryWorker } from '../../apps/api/src/webhooks/delivery.worker';
import { aProject, aTeam, Prop, Team } from '../support/builders';
import { projectFeed } from '../support/builders-b';
import { deliveriesSince } from '../support/builders-c';
import { anAdmin } from '../support/builders-d';
import { expectStatus } from '../support/fixtures';
import { addMember, Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { DeliveryAnswer, ErrorAnswer, WebhookCreatedAnswer, WebhookDeliveryBody } from '../support/answers';

const ALLOW = { SERVICE_WEBHOOK_ALLOW: '127.0.0.1' };
const NEEDS_URL = 'A webhook needs an http or https URL.';
const USERINFO = 'A webhook address cannot carry a name and password.';
const PRIVATE = 'That address is private, so a webhook cannot reach it.';
const BODY_KEYS = ['at', 'delivery', 'kind', 'projectId', 'projectKey', 'taskId', 'taskKey'];
const WEBHOOK_KEYS = ['createdAt', 'enabled', 'id', 'kinds', 'lastDelivery', 'secretPrefix', 'url'];
const DELIVERY_KEYS = ['createdAt', 'deliveredAt', 'id', 'kind', 'lastCode', 'lastError', 'nextTryAt', 'status', 'taskKey', 'tries'];
const MINUTE = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a receiver must do before trusting a delivery: raw body, constant-time compare, five minutes. */
function verifyDelivery(headers: IncomingMessage['headers'], raw: Buffer, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const timestamp = headers['x-service-timestamp'];
  const signature = headers['x-service-signature'];
  if (typeof timestamp !== 'string' || !/^[0-9]+$/.test(timestamp) || typeof signature !== 'string') return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Hit {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  /** The delivery as JSON; null when the body did not parse. */
  body: WebhookDeliveryBody | null;
  /** null when the receiver was given no secret for this path. */
  verified: boolean | null;
  at: number;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, hit: Hit) => void;

/** A webhook receiver on 127.0.0.1: one behaviour and one secret per path; counts connections. */
class Receiver {
  readonly hits: Hit[] = [];
  connections = 0;
  private readonly secrets = new Map<string, string>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private port = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const path = (req.url ?? '').split('?')[0];
        const secret = this.secrets.get(path);
        let body: WebhookDeliveryBody | null = null;
        try {
          body = JSON.parse(raw.toString('utf8')) as WebhookDeliveryBody;
        } catch {
          /* kept raw */
        }
        const hit: Hit = { path, method: req.method ?? '', headers: req.headers, raw, body, verified: secret ? verifyDelivery(req.headers, raw, secret) : null, at: Date.now() };
        this.hits.push(hit);
        const behaviour = this.behaviours.get(path);
        if (behaviour) behaviour(req, res, hit);
        else res.writeHead(hit.verified === false ? 401 : 200).end(hit.verified === false ? 'bad signature' : 'thanks');
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  secret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    this.timers.add(timer);
  }

  at(path: string): Hit[] {
    return this.hits.filter((h) => h.path === path);
  }

  async waitFor(path: string, match: (h: Hit) => boolean = () => true, count = 1, ms = 8000): Promise<Hit[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.at(path).filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`receiver: ${found.length}/${count} hits on ${path}; all: ${JSON.stringify(this.at(path).map((h) => h.body))}`);
      await sleep(25);
    }
  }
}

/** The client of the same person on another instance (sessions live in the database). */
const sameSession = (person: Person, app: TestApp): Client => {
  const c = new Client(app.api);
  c.cookie = person.client.cookie;
  return c;
};

describe('webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  /** Olive's project Hooks (HOOK), with Milo, the agent Robo, and Oscar outside it. */
  let team: Team;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  const cleanups: (() => Promise<unknown>)[] = [];

  const hooks = (pid: string) => `/projects/${pid}/webhooks` as const;
  const create = (pid: string, body: unknown, c: Client = owner.client) => c.post(hooks(pid), body);
  const deliveriesOf = async (c: Client, pid: string, id: string) => (await expectStatus(c.get(`${hooks(pid)}/${id}/deliveries`), 200)).deliveries;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await startTestApp({ env: ALLOW });
    team = await aTeam(t, { name: 'Hooks', key: 'HOOK' });
    ({ owner, member, outsider } = team);
    admin = await anAdmin(t, owner.client, team.project.id);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await t?.close();
    await receiver?.stop();
  });

  describe('routes', () => {
    let projectId: string;
    let otherProjectId: string;
    let agent: { client: Client };

    beforeAll(async () => {
      projectId = team.project.id;
      agent = team.agent;
      otherProjectId = (await aProject(owner.client, { name: 'Other hooks', key: 'OHK' })).project.id;
    });

    it('creates one: 201 { webhook, secret }, secret svcs_… shown once, secretPrefix its first 9 characters', async () => {
      const url = receiver.url('/routes/a');
      const res = await create(projectId, { url });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['secret', 'webhook']);
      const { webhook, secret } = res.body;
      expect(Object.keys(webhook).sort()).toEqual(WEBHOOK_KEYS);
      expect(secret).toMatch(/^svcs_[A-Za-z0-9_-]{20,}$/);
      expect(webhook).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url,
        kinds: [],
        enabled: true,
        secretPrefix: secret.slice(0, 9),
        createdAt: expect.any(String),
        lastDelivery: null,
      });
      expect(Number.isNaN(Date.parse(webhook.createdAt))).toBe(false);

      const list = await expectStatus(owner.client.get(hooks(projectId)), 200);
      expect(list.webhooks.map((w) => w.id)).toContain(webhook.id);
      expect(list.webhooks.find((w) => w.id === webhook.id)).toEqual(webhook);
      const patched = await expectStatus(owner.client.patch(`${hooks(projectId)}/${webhook.id}`, { kinds: ['comment'] }), 200);
      expect(Object.keys(patched)).toEqual(['webhook']);
      for (const read of [list, patched, await expectStatus(owner.client.get(`${hooks(projectId)}/${webhook.id}/deliveries`), 200)]) {
        expect(JSON.stringify(read)).not.toContain(secret);
        expect(JSON.stringify(read)).not.toContain(secret.slice(9));
      }
      // Never in the database's answer to another project either.
      expect((await expectStatus(owner.client.get(hooks(otherProjectId)), 200)).webhooks).toEqual([]);
    });

    it('takes kinds and enabled on create; an admin may make one', async () => {
      const res = await create(projectId, { url: receiver.url('/routes/b'), kinds: ['comment', 'link', 'comment'], enabled: false }, admin.client);
      expect(res.status).toBe(201);
      expect(res.body.webhook).toMatchObject({ kinds: ['comment', 'link'], enabled: false });
      expect((await admin.client.get(hooks(projectId))).status).toBe(200);
    });

    it('refuses URLs that are not http(s), that carry a name and password (allow list or not), or that are private', async () => {
      for (const url of ['ftp://example.com/', 'not a url', '', '   ', 42, null, 'javascript:alert(1)', 'file:///etc/passwd']) {
        expect([url, await create(projectId, { url })]).toMatchObject([url, { status: 400, body: { error: NEEDS_URL } }]);
      }
      expect(await create(projectId, {})).toMatchObject({ status: 400, body: { error: NEEDS_URL } });
      for (const url of ['http://user:pass@example.com/', `http://user:pass@127.0.0.1:1234/x`, 'https://user@example.com/']) {
        expect([url, await create(projectId, { url })]).toMatchObject([url, { status: 400, body: { error: USERINFO } }]);
      }
      // 127.0.0.1 is allowed on this instance, but 10.0.0.1 and the rest are not.
      for (const url of ['http://10.0.0.1/', 'http://192.168.1.20/hook', 'http://169.254.169.254/latest', 'http://[::1]/', 'http://127.0.0.2/']) {
        expect([url, await create(projectId, { url })]).toMatchObject([url, { status: 400, body: { error: PRIVATE } }]);
      }
    });

    it('refuses a kind that is not an event kind, test included', async () => {
      expect(await create(projectId, { url: receiver.url('/routes/k'), kinds: ['nope'] })).toMatchObject({ status: 400, body: { error: 'nope is not an event kind.' } });
      expect(await create(projectId, { url: receiver.url('/routes/k'), kinds: ['comment', 'test'] })).toMatchObject({
        status: 400,
        body: { error: 'test is not an event kind.' },
      });
      expect((await create(projectId, { url: receiver.url('/routes/k'), kinds: 'comment' })).status).toBe(400);
      expect((await create(projectId, { url: receiver.url('/routes/k'), enabled: 'yes' })).status).toBe(400);
      const all = ['created', 'title', 'description', 'value', 'checklist', 'comment', 'run', 'archive', 'link', 'deleted', 'reset', 'import', 'attachment', 'rules'];
      const res = await create(projectId, { url: receiver.url('/routes/k'), kinds: all, enabled: false });
      expect(res.status).toBe(201);
      expect(res.body.webhook.kinds).toEqual(all);
    });

    it('changes url, kinds, enabled; refuses what create refuses and leaves the webhook as it was', async () => {
      const { webhook } = await expectStatus(create(projectId, { url: receiver.url('/routes/c') }), 201);
      const path = `${hooks(projectId)}/${webhook.id}` as const;
      const url = receiver.url('/routes/c2');
      const res = await expectStatus(owner.client.patch(path, { url, kinds: ['title', 'description'], enabled: false }), 200);
      expect(res).toEqual({ webhook: { ...webhook, url, kinds: ['title', 'description'], enabled: false } });
      expect(await owner.client.patch(path, { url: 'http://10.0.0.1/' })).toMatchObject({ status: 400, body: { error: PRIVATE } });
      expect(await owner.client.patch(path, { url: 'http://a:b@example.com/' })).toMatchObject({ status: 400, body: { error: USERINFO } });
      expect(await owner.client.patch(path, { url: 'gopher://example.com/' })).toMatchObject({ status: 400, body: { error: NEEDS_URL } });
      expect(await owner.client.patch(path, { kinds: ['test'] })).toMatchObject({ status: 400, body: { error: 'test is not an event kind.' } });
      expect(await owner.client.patch(path, { kinds: ['nope'] })).toMatchObject({ status: 400, body: { error: 'nope is not an event kind.' } });
      const after = (await expectStatus(owner.client.get(hooks(projectId)), 200)).webhooks.find((w) => w.id === webhook.id);
      expect(after).toEqual(res.webhook);
      // Back on, kinds emptied means all kinds.
      expect((await expectStatus(owner.client.patch(path, { enabled: true, kinds: [] }), 200)).webhook).toMatchObject({ enabled: true, kinds: [] });
    });

    it('rolls the secret with { roll: true }: the new one is answered once and signs, the old one no longer verifies', async () => {
      const path = '/routes/roll';
      const { webhook, secret: old } = await expectStatus(create(projectId, { url: receiver.url(path) }), 201);
      receiver.secret(path, old);
      await expectStatus(owner.client.post(`${hooks(projectId)}/${webhook.id}`), 202);
      const [before] = await receiver.waitFor(path);
      expect(before.verified).toBe(true);

      const rolled = await expectStatus(owner.client.patch(`${hooks(projectId)}/${webhook.id}`, { roll: true }), 200);
      expect(Object.keys(rolled).sort()).toEqual(['secret', 'webhook']);
      expect(rolled.secret).toMatch(/^svcs_/);
      expect(rolled.secret).not.toBe(old);
      expect(rolled.webhook.secretPrefix).toBe(rolled.secret!.slice(0, 9));
      expect(rolled.webhook).toMatchObject({ id: webhook.id, url: webhook.url, kinds: [], enabled: true });
      const list = await expectStatus(owner.client.get(hooks(projectId)), 200);
      expect(JSON.stringify(list)).not.toContain(rolled.secret);
      expect(list.webhooks.find((w) => w.id === webhook.id)!.secretPrefix).toBe(rolled.secret!.slice(0, 9));

      receiver.secret(path, rolled.secret!);
      await expectStatus(owner.client.post(`${hooks(projectId)}/${webhook.id}`), 202);
      const [, after] = await receiver.waitFor(path, () => true, 2);
      expect(after.verified).toBe(true);
      expect(verifyDelivery(after.headers, after.raw, old)).toBe(false);
      expect(verifyDelivery(before.headers, before.raw, rolled.secret!)).toBe(false);
    });

    it('sends a test: 202 { delivery } of kind test with no task, to that webhook alone', async () => {
      const path = '/routes/test';
      const { webhook, secret } = await expectStatus(create(projectId, { url: receiver.url(path) }), 201);
      receiver.secret(path, secret);
      const otherPath = '/routes/test-other';
      await expectStatus(create(projectId, { url: receiver.url(otherPath) }), 201);
      const res = await owner.client.post(`${hooks(projectId)}/${webhook.id}`);
      expect(res.status).toBe(202);
      expect(Object.keys(res.body)).toEqual(['delivery']);
      const { delivery } = res.body;
      expect(Object.keys(delivery).sort()).toEqual(DELIVERY_KEYS);
      expect(delivery).toMatchObject({ kind: 'test', taskKey: null, tries: expect.any(Number) });
      expect(['pending', 'delivered']).toContain(delivery.status);
      const [hit] = await receiver.waitFor(path);
      expect(hit.verified).toBe(true);
      expect(hit.body).toEqual({ delivery: delivery.id, projectId, projectKey: 'HOOK', kind: 'test', taskId: null, taskKey: null, at: expect.any(String) });
      await sleep(300);
      expect(receiver.at(otherPath)).toHaveLength(0);
      const [listed] = await deliveriesOf(owner.client, projectId, webhook.id);
      expect(listed).toMatchObject({ id: delivery.id, kind: 'test', taskKey: null });
    });

    it('counts the deliveries, lists them newest first, and shows the last one on the list', async () => {
      const path = '/routes/count';
      const { webhook, secret } = await expectStatus(create(projectId, { url: receiver.url(path) }), 201);
      receiver.secret(path, secret);
      expect(await expectStatus(owner.client.get(`${hooks(projectId)}/${webhook.id}/count`), 200)).toEqual({ deliveries: 0 });
      expect(await expectStatus(owner.client.get(`${hooks(projectId)}/${webhook.id}/deliveries`), 200)).toEqual({ deliveries: [] });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await expectStatus(owner.client.post(`${hooks(projectId)}/${webhook.id}`), 202)).delivery.id);
      expect(await expectStatus(owner.client.get(`${hooks(projectId)}/${webhook.id}/count`), 200)).toEqual({ deliveries: 3 });
      await receiver.waitFor(path, () => true, 3);
      let listed: DeliveryAnswer[] = [];
      for (let i = 0; i < 50; i++) {
        listed = await deliveriesOf(owner.client, projectId, webhook.id);
        if (listed.every((d) => d.status === 'delivered')) break;
        await sleep(100);
      }
      expect(listed.map((d) => d.id)).toEqual([...ids].reverse());
      for (const d of listed) {
        expect(Object.keys(d).sort()).toEqual(DELIVERY_KEYS);
        expect(d).toEqual({
          id: expect.any(String),
          kind: 'test',
          taskKey: null,
          status: 'delivered',
          tries: 1,
          lastCode: 200,
          lastError: null,
          createdAt: expect.any(String),
          nextTryAt: null,
          deliveredAt: expect.any(String),
        });
      }
      const onList = (await expectStatus(owner.client.get(hooks(projectId)), 200)).webhooks.find((w) => w.id === webhook.id)!;
      expect(onList.lastDelivery).toEqual(listed[0]);
    });

    it('deletes one: { ok: true }, then it is gone (404)', async () => {
      const { webhook } = await expectStatus(create(projectId, { url: receiver.url('/routes/gone') }), 201);
      const path = `${hooks(projectId)}/${webhook.id}`;
      expect(await owner.client.delete(path)).toMatchObject({ status: 200, body: { ok: true } });
      expect((await expectStatus(owner.client.get(hooks(projectId)), 200)).webhooks.some((w) => w.id === webhook.id)).toBe(false);
      expect((await owner.client.delete(path)).status).toBe(404);
      expect((await owner.client.get(`${path}/count`)).status).toBe(404);
      expect((await owner.client.get(`${path}/deliveries`)).status).toBe(404);
      expect((await owner.client.patch(path, { enabled: false })).status).toBe(404);
      expect((await owner.client.post(path)).status).toBe(404);
    });

    it('answers 404 for a webhook of another project, 400 for an id that is not one', async () => {
      const { webhook } = await expectStatus(create(otherProjectId, { url: receiver.url('/routes/elsewhere') }), 201);
      for (const [method, suffix] of [['get', '/count'], ['get', '/deliveries'], ['patch', ''], ['post', ''], ['delete', '']] as const) {
        const res = await owner.client.request(method.toUpperCase(), `${hooks(projectId)}/${webhook.id}${suffix}`, method === 'patch' ? { enabled: false } : undefined);
        expect([method, suffix, res.status]).toEqual([method, suffix, 404]);
      }
      expect((await expectStatus(owner.client.get(hooks(otherProjectId)), 200)).webhooks[0]).toMatchObject({ id: webhook.id, enabled: true });
      expect(await owner.client.get(`${hooks(projectId)}/nope/count`)).toMatchObject({ status: 400, body: { error: 'That is not a webhook id.' } });
      expect(await owner.client.delete(`${hooks(projectId)}/nope`)).toMatchObject({ status: 400, body: { error: 'That is not a webhook id.' } });
    });

    it('is the owner’s and the admins’ only, the read included: a member and an agent get 403, a non-member 404', async () => {
      const { webhook } = await expectStatus(create(projectId, { url: receiver.url('/routes/gated') }), 201);
      const one = `${hooks(projectId)}/${webhook.id}`;
      expect(await member.client.get(hooks(projectId))).toMatchObject({ status: 403, body: { error: 'Only the owner or an admin can see webhooks.' } });
      const calls: [string, string, unknown?][] = [
        ['POST', hooks(projectId), { url: receiver.url('/routes/x') }],
        ['PATCH', one, { enabled: false }],
        ['POST', one],
        ['DELETE', one],
        ['GET', `${one}/count`],
        ['GET', `${one}/deliveries`],
      ];
      for (const [method, path, body] of calls) {
        const res = await member.client.request<ErrorAnswer>(method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.error).toMatch(/^Only the owner or an admin can [a-z ]+\.$/);
      }
      for (const [method, path, body] of [['GET', hooks(projectId)] as [string, string], ...calls]) {
        const res = await agent.client.request(method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 403]);
      }
      for (const [method, path, body] of [['GET', hooks(projectId)] as [string, string], ...calls]) {
        expect(await outsider.client.request(method, path, body)).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
      }
      expect(await new Client(t.api).get(hooks(projectId))).toMatchObject({ status: 401 });
      // Nothing changed.
      expect((await expectStatus(owner.client.get(hooks(projectId)), 200)).webhooks.find((w) => w.id === webhook.id)).toMatchObject({ enabled: true });
      expect(await expectStatus(owner.client.get(`${one}/count`), 200)).toEqual({ deliveries: 0 });
    });
  });

  describe('deliveries', () => {
    let projectId: string;
    let all: WebhookCreatedAnswer;
    let comments: WebhookCreatedAnswer;
    let off: WebhookCreatedAnswer;
    const ALL = '/ring/all';
    const COMMENTS = '/ring/comments';
    const OFF = '/ring/off';
    let status: Prop;

    /** The project's deliveries written after this point, as each webhook's list shows them. */
    const since = async () => {
      const written = await deliveriesSince(owner.client, projectId);
      return async () => (await written()).map((d) => ({ webhookId: d.webhookId, kind: d.kind, taskKey: d.taskKey }));
    };
    const newTask = async (title: string) => (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title }), 201)).task;

    beforeAll(async () => {
      ({ project: { id: projectId }, status } = await aProject(owner.client, { name: 'Doorbell', key: 'BELL' }));
      await addMember(owner.client, projectId, member);
      all = await expectStatus(create(projectId, { url: receiver.url(ALL) }), 201);
      comments = await expectStatus(create(projectId, { url: receiver.url(COMMENTS), kinds: ['comment'] }), 201);
      off = await expectStatus(create(projectId, { url: receiver.url(OFF), enabled: false }), 201);
      receiver.secret(ALL, all.secret);
      receiver.secret(COMMENTS, comments.secret);
      receiver.secret(OFF, off.secret);
    });

    it('delivers a task create within seconds: the body, the headers, a signature the receiver verifies', async () => {
      const started = Date.now();
      const task = await newTask('Ring the bell');
      const [hit] = await receiver.waitFor(ALL, (h) => h.body?.taskId === task.id, 1, 5000);
      expect(hit.at - started).toBeLessThan(5000);
      expect(hit.method).toBe('POST');
      expect(hit.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(hit.body!).sort()).toEqual(BODY_KEYS);
      expect(hit.body).toEqual({
        delivery: expect.stringMatching(/^[0-9a-f-]{36}$/),
        projectId,
        projectKey: 'BELL',
        kind: 'created',
        taskId: task.id,
        taskKey: task.key,
        at: expect.any(String),
      });
      expect(hit.headers['x-service-delivery']).toBe(hit.body!.delivery);
      const timestamp = Number(hit.headers['x-service-timestamp']);
      expect(String(hit.headers['x-service-timestamp'])).toMatch(/^[0-9]+$/);
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(hit.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(hit.verified).toBe(true);
      // The signature covers the raw bytes: anything else fails.
      expect(verifyDelivery(hit.headers, Buffer.from(JSON.stringify(hit.body) + ' '), all.secret)).toBe(false);
      expect(verifyDelivery(hit.headers, hit.raw, all.secret, timestamp + 301)).toBe(false);
      expect(verifyDelivery(hit.headers, hit.raw, comments.secret)).toBe(false);
      // `at` is an ISO 8601 moment: that of the feed line, give or take.
      const feed = await expectStatus(owner.client.get(`/projects/${projectId}/activity`), 200);
      const line = feed.activity.find((e) => e.kind === 'created' && e.taskId === task.id)!;
      expect(hit.body!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
      expect(Math.abs(Date.parse(hit.body!.at) - Date.parse(line.createdAt))).toBeLessThan(2000);
      // And the delivery reads as delivered.
      let delivery: DeliveryAnswer | undefined;
      for (let i = 0; i < 50; i++) {
        delivery = (await deliveriesOf(owner.client, projectId, all.webhook.id)).find((d) => d.id === hit.body!.delivery);
        if (delivery?.status === 'delivered') break;
        await sleep(100);
      }
      expect(delivery).toEqual({
        id: hit.body!.delivery,
        kind: 'created',
        taskKey: task.key,
        status: 'delivered',
        tries: 1,
        lastCode: 200,
        lastError: null,
        createdAt: expect.any(String),
        nextTryAt: null,
        deliveredAt: expect.any(String),
      });
    });

    it('makes a delivery due at once by the worker’s clock: its first try time has no fraction of a millisecond', async () => {
      // The worker claims what is due by its own clock, which counts whole milliseconds; a first try
      // stamped with microseconds could sit just past "now" when the wake-up arrives within the same
      // millisecond, and wait for the next write or the poll a second later.
      for (let i = 0; i < 5; i++) await newTask(`Due at once ${i}`);
      // Storage itself: a delivery's first try time to the microsecond, which no read shows.
      const rows = (
        await t.sql.query(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE next_try_at <> date_trunc('milliseconds', next_try_at))::int AS fractional
             FROM webhook_deliveries WHERE project_id = $1`,
          [projectId],
        )
      ).rows[0];
      expect(rows.n).toBeGreaterThanOrEqual(5);
      expect(rows.fractional).toBe(0);
    });

    it('sends one delivery per task of a bulk value write, each with its task', async () => {
      const tasks = [await newTask('Bulk one'), await newTask('Bulk two'), await newTask('Bulk three')];
      const done = status.options[status.options.length - 1].id;
      await expectStatus(owner.client.post(`/projects/${projectId}/tasks/values`, { taskIds: tasks.map((x) => x.id), propertyId: status.id, value: done }), 200);
      const ids = new Set(tasks.map((x) => x.id));
      const hits = await receiver.waitFor(ALL, (h) => h.body?.kind === 'value' && h.body.taskId !== null && ids.has(h.body.taskId), 3, 5000);
      expect(hits.map((h) => h.body!.taskKey).sort()).toEqual(tasks.map((x) => x.key).sort());
      expect(hits.every((h) => h.verified)).toBe(true);
      // One feed line per task, in the order the bulk wrote them (by task id), even when they share
      // a microsecond (the feed reads oldest first by createdAt, then id).
      const feed = await expectStatus(owner.client.get(`/projects/${projectId}/activity`), 200);
      const lines = feed.activity.filter((e) => e.kind === 'value' && e.taskId !== null && ids.has(e.taskId));
      expect(lines.map((e) => e.taskId)).toEqual([...ids].sort());
    });

    it('sends a webhook with kinds [comment] comment lines only (a new comment and an edit)', async () => {
      const rows = await since();
      const task = await newTask('Talk about it');
      await expectStatus(owner.client.put(`/tasks/${task.id}/values/${status.id}`, { value: status.options[1].id }), 200);
      await expectStatus(owner.client.patch(`/tasks/${task.id}`, { title: 'Talk about it more' }), 200);
      await expectStatus(owner.client.post(`/tasks/${task.id}/checklist`, { text: 'Agenda' }), 201);
      const comment = (await expectStatus(member.client.post(`/tasks/${task.id}/comments`, { body: 'Hello' }), 201)).comment;
      await expectStatus(member.client.patch(`/comments/${comment.id}`, { body: 'Hello again' }), 200);
      const hits = await receiver.waitFor(COMMENTS, (h) => h.body?.taskId === task.id, 2);
      expect(hits.map((h) => h.body!.kind)).toEqual(['comment', 'comment']);
      expect(hits.every((h) => h.verified === true && h.body!.taskKey === task.key)).toBe(true);
      const written = await rows();
      expect(written.filter((r) => r.webhookId === comments.webhook.id).map((r) => r.kind)).toEqual(['comment', 'comment']);
      expect(written.filter((r) => r.webhookId === all.webhook.id).map((r) => r.kind).sort()).toEqual(
        ['checklist', 'comment', 'comment', 'created', 'title', 'value'].sort(),
      );
      await receiver.waitFor(ALL, (h) => h.body?.taskId === task.id, 6);
      await sleep(300);
      expect(receiver.at(COMMENTS).filter((h) => h.body?.taskId === task.id)).toHaveLength(2);
    });

    it('sends nothing for a disabled webhook, nor after one is switched off', async () => {
      await newTask('Nobody hears');
      expect(await expectStatus(owner.client.get(`${hooks(projectId)}/${off.webhook.id}/count`), 200)).toEqual({ deliveries: 0 });
      const { webhook } = await expectStatus(create(projectId, { url: receiver.url('/ring/switched') }), 201);
      await expectStatus(owner.client.patch(`${hooks(projectId)}/${webhook.id}`, { enabled: false }), 200);
      const rows = await since();
      await newTask('Still nobody');
      expect((await rows()).filter((r) => r.webhookId === webhook.id || r.webhookId === off.webhook.id)).toEqual([]);
      expect(await expectStatus(owner.client.get(`${hooks(projectId)}/${webhook.id}/count`), 200)).toEqual({ deliveries: 0 });
      await sleep(500);
      expect(receiver.at(OFF)).toHaveLength(0);
      expect(receiver.at('/ring/switched')).toHaveLength(0);
    });

    it('sends rules and reset lines with taskId and taskKey null', async () => {
      await expectStatus(owner.client.put(`/projects/${projectId}/rules`, { text: `Rules ${randomUUID()}` }), 200);
      const [rules] = await receiver.waitFor(ALL, (h) => h.body?.kind === 'rules');
      expect(rules.body).toEqual({ delivery: expect.any(String), projectId, projectKey: 'BELL', kind: 'rules', taskId: null, taskKey: null, at: expect.any(String) });
      await expectStatus(owner.client.post(`/projects/${projectId}/members/${member.user.id}/reset`), 200);
      const [reset] = await receiver.waitFor(ALL, (h) => h.body?.kind === 'reset');
      expect(reset.body).toEqual({ delivery: expect.any(String), projectId, projectKey: 'BELL', kind: 'reset', taskId: null, taskKey: null, at: expect.any(String) });
      expect(rules.verified && reset.verified).toBe(true);
      const listed = await deliveriesOf(owner.client, projectId, all.webhook.id);
      expect(listed.find((d) => d.id === reset.body!.delivery)).toMatchObject({ kind: 'reset', taskKey: null });
    });

    it('sends nothing for a property, option, view or card-view change', async () => {
      const rows = await since();
      const property = (await expectStatus(owner.client.post(`/projects/${projectId}/properties`, { name: 'Size', type: 'select', options: ['S'] }), 201)).property;
      await expectStatus(owner.client.patch(`/properties/${property.id}`, { name: 'Bigness' }), 200);
      const option = (await expectStatus(owner.client.post(`/properties/${property.id}/options`, { name: 'M' }), 201)).option;
      await expectStatus(owner.client.patch(`/options/${option.id}`, { name: 'Medium' }), 200);
      const view = (await expectStatus(owner.client.post(`/projects/${projectId}/views`, { name: 'A list', kind: 'list' }), 201)).view;
      await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'The list', filters: { rules: [{ propertyId: status.id, op: 'is', values: [status.options[0].id] }] } }), 200);
      await expectStatus(owner.client.patch(`/projects/${projectId}/card-view`, { rows: { _title: { place: 'title', mode: 'fixed' } } }), 200);
      await expectStatus(owner.client.patch(`/views/${view.id}/card-view`, { rows: { [property.id]: { place: 'footer', mode: 'text' } } }), 200);
      await expectStatus(owner.client.patch(`/projects/${projectId}`, { name: 'Doorbell, renamed' }), 200);
      expect(await rows()).toEqual([]);
    });

    it('rings link both ways: a blocker linked and unlinked, a part parented and unparented', async () => {
      const task = await newTask('Waits');
      const blocker = await newTask('In the way');
      const parent = await newTask('Whole');
      await expectStatus(owner.client.post(`/tasks/${task.id}/blockers`, { blockerId: blocker.id }), 200);
      await expectStatus(owner.client.delete(`/tasks/${task.id}/blockers/${blocker.id}`), 200);
      await expectStatus(owner.client.put(`/tasks/${task.id}/parent`, { parentId: parent.id }), 200);
      await expectStatus(owner.client.delete(`/tasks/${task.id}/parent`), 200);
      const hits = await receiver.waitFor(ALL, (h) => h.body?.kind === 'link', 4);
      for (const hit of hits) expect(hit.body).toMatchObject({ kind: 'link', taskId: task.id, taskKey: task.key });
      // Repeating a link that is there writes and rings nothing.
      const rows = await since();
      await expectStatus(owner.client.put(`/tasks/${task.id}/parent`, { parentId: parent.id }), 200);
      await expectStatus(owner.client.put(`/tasks/${task.id}/parent`, { parentId: parent.id }), 200);
      expect((await rows()).filter((r) => r.webhookId === all.webhook.id)).toEqual([{ webhookId: all.webhook.id, kind: 'link', taskKey: task.key }]);
    });

    it('writes no delivery for a write that rolls back (a 409 circle)', async () => {
      const a = await newTask('A');
      const b = await newTask('B');
      await expectStatus(owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: b.id }), 200);
      const rows = await since();
      const feedBefore = (await projectFeed(owner.client, projectId)).length;
      const res = await owner.client.post(`/tasks/${b.id}/blockers`, { blockerId: a.id });
      expect(res.status).toBe(409);
      expect(await rows()).toEqual([]);
      expect((await projectFeed(owner.client, projectId)).length).toBe(feedBefore);
      await sleep(300);
      expect(receiver.at(ALL).filter((h) => h.body?.taskId === b.id && h.body?.kind === 'link')).toEqual([]);
    });

    it('keeps only the last 20 deliveries of a webhook (25 made)', async () => {
      const pid = (await createProject(owner.client, 'Many', 'MANY')).id;
      const path = '/ring/many';
      const hook = await expectStatus(create(pid, { url: receiver.url(path), kinds: ['created'] }), 201);
      receiver.secret(path, hook.secret);
      const keys: string[] = [];
      for (let i = 1; i <= 25; i++) keys.push((await expectStatus(owner.client.post(`/projects/${pid}/tasks`, { title: `Task ${i}` }), 201)).task.key);
      let listed: DeliveryAnswer[] = [];
      for (let i = 0; i < 100; i++) {
        await t.app.get(DeliveryWorker).drain();
        listed = await deliveriesOf(owner.client, pid, hook.webhook.id);
        const count = (await expectStatus(owner.client.get(`${hooks(pid)}/${hook.webhook.id}/count`), 200)).deliveries;
        // The count is every row kept and the list shows the newest 20: at 20 the list is all of them, none pending.
        if (count === 20 && listed.every((d) => d.status !== 'pending')) break;
        await sleep(100);
      }
      // The rows left: the count counts every one the webhook keeps.
      expect(await expectStatus(owner.client.get(`${hooks(pid)}/${hook.webhook.id}/count`), 200)).toEqual({ deliveries: 20 });
      expect(listed).toHaveLength(20);
      expect(listed.map((d) => d.taskKey)).toEqual(keys.slice(5).reverse());
      expect(listed.every((d) => d.status === 'delivered' && d.kind === 'created')).toBe(true);
      const times = listed.map((d) => Date.parse(d.createdAt));
      expect(times.every((x, i) => i === 0 || x <= times[i - 1])).toBe(true);
      // Every kept one reached the receiver, verified.
      const seen = new Set(receiver.at(path).filter((h) => h.verified).map((h) => h.body!.delivery));
      expect(listed.every((d) => seen.has(d.id))).toBe(true);
    });

    it('never sends one delivery twice when two instances drain at once', async () => {
      const b = await startTestApp({ env: ALLOW, databaseUrl: t.databaseUrl });
      cleanups.push(() => b.close());
      try {
        const pid = (await createProject(owner.client, 'Busy', 'BUSY')).id;
        const ids: string[] = [];
        for (let i = 1; i <= 60; i++) ids.push((await expectStatus(owner.client.post(`/projects/${pid}/tasks`, { title: `Task ${i}` }), 201)).task.id);
        const path = '/ring/busy';
        const hook = await expectStatus(create(pid, { url: receiver.url(path), kinds: ['archive'] }), 201);
        receiver.secret(path, hook.secret);
        receiver.on(path, (_req, res, hit) => receiver.later(20, () => res.writeHead(hit.verified ? 200 : 401).end()));
        const workers = [t.app.get(DeliveryWorker), b.app.get(DeliveryWorker)];
        expect(workers[0]).not.toBe(workers[1]);
        // Two transactions of thirty deliveries each, one on each instance; both are woken at commit and drain besides.
        const archived = owner.client.post(`/projects/${pid}/archive`, { taskIds: ids.slice(0, 30) });
        const archivedOnB = sameSession(owner, b).post(`/projects/${pid}/archive`, { taskIds: ids.slice(30) });
        expect((await archived).body).toEqual({ archived: 30 });
        expect((await archivedOnB).body).toEqual({ archived: 30 });
        await Promise.all([workers[0].drain(), workers[1].drain(), workers[0].drain(), workers[1].drain()]);
        const hits = await receiver.waitFor(path, () => true, 60, 15_000);
        await Promise.all([workers[0].drain(), workers[1].drain()]);
        await sleep(1500);
        const all = receiver.at(path);
        const byId = new Map<string, number>();
        for (const h of all) byId.set(h.body!.delivery, (byId.get(h.body!.delivery) ?? 0) + 1);
        expect(byId.size).toBe(60);
        expect([...byId.values()].filter((n) => n > 1)).toEqual([]);
        expect(all).toHaveLength(60);
        expect(hits.every((h) => h.verified)).toBe(true);
        expect(new Set(all.map((h) => h.body!.taskId))).toEqual(new Set(ids));
      } finally {
        await b.close();
      }
    });

    it('two drains of one worker at once never send one delivery twice', async () => {
      const pid = (await createProject(owner.client, 'Twice', 'TWICE')).id;
      const path = '/ring/twice';
      const hook = await expectStatus(create(pid, { url: receiver.url(path), kinds: ['archive'] }), 201);
      receiver.secret(path, hook.secret);
      receiver.on(path, (_req, res) => receiver.later(20, () => res.writeHead(200).end()));
      const ids: string[] = [];
      for (let i = 1; i <= 12; i++) ids.push((await expectStatus(owner.client.post(`/projects/${pid}/tasks`, { title: `Task ${i}` }), 201)).task.id);
      await expectStatus(owner.client.post(`/projects/${pid}/archive`, { taskIds: ids }), 200);
      const worker = t.app.get(DeliveryWorker);
      await Promise.all([worker.drain(), worker.drain(), worker.drain()]);
      await receiver.waitFor(path, () => true, 12);
      await sleep(1000);
      const delivered = receiver.at(path).map((h) => h.body!.delivery);
      expect(delivered).toHaveLength(12);
      expect(new Set(delivered).size).toBe(12);
    });
  });

  describe('retries, on a clock the test moves', () => {
    let c: TestApp;
    let clock: OffsetClock;
    let person: Person;
    let worker: DeliveryWorker;

    beforeAll(async () => {
      clock = new OffsetClock();
      c = await startTestApp({ env: ALLOW, clock });
      cleanups.push(() => c.close());
      person = await registerPerson(c, 'Rita');
      worker = c.app.get(DeliveryWorker);
    });

    /** A project with one webhook to `path` that rings for created lines only, and one task created: its delivery. */
    async function oneDelivery(key: string, path: string) {
      const pid = (await createProject(person.client, key, key)).id;
      const hook = await expectStatus(create(pid, { url: receiver.url(path), kinds: ['created'] }, person.client), 201);
      await expectStatus(person.client.post(`/projects/${pid}/tasks`, { title: 'Ring' }), 201);
      const written = await deliveriesOf(person.client, pid, hook.webhook.id);
      expect(written).toHaveLength(1);
      return { pid, webhookId: hook.webhook.id, deliveryId: written[0].id };
    }
    const read = async (d: { pid: string; webhookId: string; deliveryId: string }) =>
      (await deliveriesOf(person.client, d.pid, d.webhookId)).find((x) => x.id === d.deliveryId);
    /** Drains until the delivery has had `tries` tries (the service's own poll may get there first). */
    async function tried(d: { pid: string; webhookId: string; deliveryId: string }, tries: number, ms = 8000) {
      const deadline = Date.now() + ms;
      for (;;) {
        await worker.drain();
        const now = await read(d);
        if (now!.tries >= tries) return now;
        if (Date.now() > deadline) throw new Error(`delivery still at ${JSON.stringify(now)}`);
        await sleep(100);
      }
    }
    /** Drains, lets the poll run too, and answers the delivery, which must not have moved. */
    async function stays(d: { pid: string; webhookId: string; deliveryId: string }, tries: number) {
      await worker.drain();
      await sleep(1300);
      await worker.drain();
      const now = await read(d);
      expect(now!.tries).toBe(tries);
      return now;
    }
    const near = (iso: string | null, expectedMs: number) => {
      expect(iso).not.toBeNull();
      expect(Math.abs(Date.parse(iso!) - expectedMs)).toBeLessThan(3000);
    };

    it('retries a 500 after 1, 5 and 30 minutes and drops it after the fourth failure', async () => {
      const path = '/retry/500';
      receiver.on(path, (_req, res) => res.writeHead(500).end('no'));
      const d = await oneDelivery('FIVE', path);
      let now = await tried(d, 1);
      expect(now).toMatchObject({ status: 'pending', tries: 1, lastCode: 500, deliveredAt: null });
      expect(typeof now!.lastError).toBe('string');
      near(now!.nextTryAt, clock.now().getTime() + 1 * MINUTE);
      expect(receiver.at(path)).toHaveLength(1);

      clock.advance(50_000);
      await stays(d, 1);
      expect(receiver.at(path)).toHaveLength(1);
      clock.advance(15_000);
      now = await tried(d, 2);
      expect(now).toMatchObject({ status: 'pending', tries: 2, lastCode: 500 });
      near(now!.nextTryAt, clock.now().getTime() + 5 * MINUTE);

      clock.advance(4 * MINUTE + 40_000);
      await stays(d, 2);
      clock.advance(30_000);
      now = await tried(d, 3);
      expect(now).toMatchObject({ status: 'pending', tries: 3, lastCode: 500 });
      near(now!.nextTryAt, clock.now().getTime() + 30 * MINUTE);

      clock.advance(29 * MINUTE);
      await stays(d, 3);
      clock.advance(90_000);
      now = await tried(d, 4);
      expect(now).toMatchObject({ status: 'dropped', tries: 4, lastCode: 500, nextTryAt: null, deliveredAt: null });

      clock.advance(24 * 60 * MINUTE);
      await stays(d, 4);
      const hits = receiver.at(path);
      expect(hits).toHaveLength(4);
      expect(new Set(hits.map((h) => h.headers['x-service-delivery']))).toEqual(new Set([d.deliveryId]));
      expect(hits.every((h) => h.body!.delivery === d.deliveryId && h.body!.kind === 'created')).toBe(true);
    });

    it('marks a success after a failure delivered, with deliveredAt', async () => {
      const path = '/retry/flaky';
      let calls = 0;
      receiver.on(path, (_req, res) => res.writeHead(++calls === 1 ? 503 : 200).end());
      const d = await oneDelivery('FLAKY', path);
      expect(await tried(d, 1)).toMatchObject({ status: 'pending', tries: 1, lastCode: 503 });
      clock.advance(61_000);
      const now = await tried(d, 2);
      expect(now).toMatchObject({ status: 'delivered', tries: 2, lastCode: 200, lastError: null, nextTryAt: null });
      near(now!.deliveredAt, clock.now().getTime());
      expect(receiver.at(path)).toHaveLength(2);
    });

    it('counts a 302 redirect as a failure and does not follow it', async () => {
      const path = '/retry/redirect';
      receiver.on(path, (_req, res) => res.writeHead(302, { location: receiver.url('/retry/target') }).end());
      const d = await oneDelivery('REDIR', path);
      const now = await tried(d, 1);
      expect(now).toMatchObject({ status: 'pending', tries: 1, lastCode: 302, deliveredAt: null });
      expect(now!.lastError).toEqual(expect.any(String));
      await sleep(300);
      expect(receiver.at('/retry/target')).toHaveLength(0);
      await expectStatus(person.client.delete(`${hooks(d.pid)}/${d.webhookId}`), 200);
    });

    it('fails a try that gets no answer within 5 seconds', async () => {
      const path = '/retry/slow';
      // Answers after 8 s: a sender that waited for it would still be at it 6.5 s in.
      receiver.on(path, (_req, res) => receiver.later(8000, () => res.writeHead(200).end()));
      const d = await oneDelivery('SLOW', path);
      const [hit] = await receiver.waitFor(path);
      await sleep(Math.max(0, hit.at + 4000 - Date.now()));
      expect((await read(d))!.tries).toBe(0);
      await sleep(Math.max(0, hit.at + 6500 - Date.now()));
      const now = await read(d);
      expect(now).toMatchObject({ status: 'pending', tries: 1, lastCode: null, deliveredAt: null });
      expect(now!.lastError).toEqual(expect.any(String));
      await expectStatus(person.client.delete(`${hooks(d.pid)}/${d.webhookId}`), 200);
    });
  });

  describe('the address rules at send time', () => {
    it('refuses a private address on an instance without the allow list, when saved and when sent', async () => {
      // B has no allow list; A shares its database and allows 127.0.0.1, so a webhook to the receiver can be saved there.
      const b = await startTestApp();
      cleanups.push(() => b.close());
      const a = await startTestApp({ env: ALLOW, databaseUrl: b.databaseUrl });
      cleanups.push(() => a.close());
      const lonely = await new Receiver().start();
      cleanups.push(() => lonely.stop());
      const who = await registerPerson(a, 'Pia');
      const pid = (await createProject(who.client, 'Private', 'PRIV')).id;
      const onB = sameSession(who, b);

      for (const url of ['http://127.0.0.1/', lonely.url('/x'), 'http://10.0.0.1/', 'http://localhost:8080/']) {
        expect([url, await onB.post(hooks(pid), { url })]).toMatchObject([url, { status: 400, body: { error: PRIVATE } }]);
      }
      const hook = await expectStatus(who.client.post(hooks(pid), { url: lonely.url('/private') }), 201);
      await a.close();

      await expectStatus(onB.post(`/projects/${pid}/tasks`, { title: 'Knock knock' }), 201);
      let delivery: DeliveryAnswer | undefined;
      for (let i = 0; i < 80; i++) {
        await b.app.get(DeliveryWorker).drain();
        [delivery] = await deliveriesOf(onB, pid, hook.webhook.id);
        if (delivery?.tries >= 1) break;
        await sleep(100);
      }
      expect(delivery).toMatchObject({ kind: 'created', status: 'pending', tries: 1, lastCode: null, lastError: PRIVATE, deliveredAt: null });
      expect(lonely.connections).toBe(0);
      expect(lonely.hits).toHaveLength(0);
    });
  });
});
