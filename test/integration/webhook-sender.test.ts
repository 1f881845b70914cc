/**
 * HttpWebhookSender against a real receiver on 127.0.0.1: signing, headers, status handling, no
 * redirects, the time limit, the address rules at send time, and that the socket goes to the
 * address that was checked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as dns from 'node:dns';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpWebhookSender, signWebhook } from '@board/platform';

const SECRET = 'svcs_0123456789abcdef';
const PRIVATE = 'That address is private, so a webhook cannot reach it.';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  verified: boolean;
  localAddress: string | undefined;
}

/** Verifies a delivery the way the contract tells a receiver to: raw body, constant time, five minutes. */
function verify(headers: IncomingMessage['headers'], raw: Buffer, secret: string, nowSeconds: number): boolean {
  const timestamp = String(headers['x-service-timestamp'] ?? '');
  const signature = String(headers['x-service-signature'] ?? '');
  if (!/^[0-9]+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Answer = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

class Receiver {
  readonly seen: Seen[] = [];
  connections = 0;
  answer: Answer = (_req, res, seen) => {
    res.writeHead(seen.verified ? 200 : 401).end('thanks');
  };
  private server: Server;
  port = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const seen: Seen = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: raw.toString('utf8'),
          verified: verify(req.headers, raw, SECRET, Math.floor(Date.now() / 1000)),
          localAddress: req.socket.localAddress,
        };
        this.seen.push(seen);
        this.answer(req, res, seen);
      });
    });
    this.server.on('connection', () => {
      this.connections++;
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  url(path = '/ring'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

const body = (delivery: string) =>
  JSON.stringify({
    delivery,
    projectId: '6f1d2c3b-0000-4000-8000-000000000001',
    projectKey: 'WEB',
    kind: 'title',
    taskId: '6f1d2c3b-0000-4000-8000-000000000002',
    taskKey: 'WEB-7',
    at: '2024-05-01T10:00:00.000Z',
  });

const input = (url: string, delivery = '0b6c7a58-1d1e-4c39-9d65-2b1f3f0c0a11') => ({
  url,
  secret: SECRET,
  deliveryId: delivery,
  body: body(delivery),
  now: new Date(),
});

describe('HttpWebhookSender', () => {
  let receiver: Receiver;
  let other: Receiver;

  beforeEach(async () => {
    receiver = new Receiver();
    other = new Receiver();
    await receiver.start();
    await other.start();
  });

  afterEach(async () => {
    await receiver.stop();
    await other.stop();
  });

  it('signs the way the contract says', () => {
    const expected = createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook('k', 1700000000, '{"a":1}')).toBe(`sha256=${expected}`);
    expect(signWebhook('k', '1700000000', '{"a":1}')).toBe(`sha256=${expected}`);
  });

  it('POSTs the signed body with the contract headers; 200 is ok', async () => {
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'] });
    const now = new Date();
    const sent = { ...input(receiver.url('/ring?via=test')), now };
    const result = await sender.send(sent);

    expect(result).toEqual({ ok: true, status: 200, error: null });
    expect(receiver.seen).toHaveLength(1);
    const [seen] = receiver.seen;
    expect(seen.verified).toBe(true);
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/ring?via=test');
    expect(seen.body).toBe(sent.body);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['user-agent']).toBe('task-board-webhooks');
    expect(seen.headers['x-service-delivery']).toBe(sent.deliveryId);
    expect(seen.headers['x-service-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(seen.headers['x-service-signature']).toBe(signWebhook(SECRET, Math.floor(now.getTime() / 1000), sent.body));
    expect(seen.headers.host).toBe(`127.0.0.1:${receiver.port}`);
  });

  it('a receiver with another secret, or an old timestamp, refuses it (401 fails)', async () => {
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'] });
    expect(await sender.send({ ...input(receiver.url()), secret: 'svcs_wrong' })).toEqual({ ok: false, status: 401, error: 'HTTP 401' });
    const old = new Date(Date.now() - 6 * 60 * 1000);
    expect(await sender.send({ ...input(receiver.url()), now: old })).toEqual({ ok: false, status: 401, error: 'HTTP 401' });
    expect(receiver.seen.map((s) => s.verified)).toEqual([false, false]);
  });

  it('signs non-ASCII bodies over their bytes', async () => {
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'] });
    const raw = JSON.stringify({ delivery: 'x', note: 'Grüße — ✓ 😀' });
    const result = await sender.send({ ...input(receiver.url()), body: raw });
    expect(result.ok).toBe(true);
    expect(receiver.seen[0].body).toBe(raw);
    expect(receiver.seen[0].verified).toBe(true);
  });

  it('204 is ok', async () => {
    receiver.answer = (_req, res) => res.writeHead(204).end();
    const result = await new HttpWebhookSender({ allow: ['127.0.0.1'] }).send(input(receiver.url()));
    expect(result).toEqual({ ok: true, status: 204, error: null });
  });

  it.each([500, 404, 400, 418])('%p is a failure with its status', async (code) => {
    receiver.answer = (_req, res) => res.writeHead(code).end('no');
    const result = await new HttpWebhookSender({ allow: ['127.0.0.1'] }).send(input(receiver.url()));
    expect(result).toEqual({ ok: false, status: code, error: `HTTP ${code}` });
    expect(receiver.seen).toHaveLength(1);
  });

  it.each([301, 302, 307, 308])('%p is a failure and the redirect is not followed', async (code) => {
    receiver.answer = (_req, res) => res.writeHead(code, { Location: other.url('/elsewhere') }).end();
    const result = await new HttpWebhookSender({ allow: ['127.0.0.1'] }).send(input(receiver.url()));
    expect(result.ok).toBe(false);
    expect(result.status).toBe(code);
    expect(result.error).toContain(String(code));
    expect(receiver.seen).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(other.seen).toHaveLength(0);
    expect(other.connections).toBe(0);
  });

  it('a receiver that never answers is a timeout after timeoutMs', async () => {
    receiver.answer = () => undefined; // holds the request open
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'], timeoutMs: 300 });
    const started = Date.now();
    const result = await sender.send(input(receiver.url()));
    const took = Date.now() - started;
    expect(result).toEqual({ ok: false, status: null, error: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(1500);
    expect(receiver.seen).toHaveLength(1);
  });

  it('stops a try under way when its signal aborts (its claim went to another instance), and starts none on an aborted one', async () => {
    receiver.answer = () => undefined; // holds the request open
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'], timeoutMs: 5000 });
    const controller = new AbortController();
    const sending = sender.send({ ...input(receiver.url()), signal: controller.signal });
    for (let i = 0; i < 100 && receiver.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    controller.abort();
    expect(await sending).toEqual({ ok: false, status: null, error: 'aborted' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(await sender.send({ ...input(receiver.url()), signal: controller.signal })).toEqual({ ok: false, status: null, error: 'aborted' });
    expect(receiver.seen).toHaveLength(1);
  });

  it('reads at most 64 KiB of an endless answer and does not wait for its end', async () => {
    receiver.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'], timeoutMs: 3000 });
    const started = Date.now();
    const result = await sender.send(input(receiver.url()));
    expect(result).toEqual({ ok: true, status: 200, error: null });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a closed port is a failure, not a throw', async () => {
    const closed = new Receiver();
    await closed.start();
    const port = closed.port;
    await closed.stop();
    const result = await new HttpWebhookSender({ allow: ['127.0.0.1'] }).send(input(`http://127.0.0.1:${port}/ring`));
    expect(result).toEqual({ ok: false, status: null, error: 'ECONNREFUSED' });
  });

  it('without the allow entry 127.0.0.1 is refused before any connection, in every spelling', async () => {
    const resolve = jest.fn(async () => ['127.0.0.1']);
    const sender = new HttpWebhookSender({ allow: [], resolve });
    for (const host of ['127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '[::ffff:127.0.0.1]', 'localhost', 'foo.localhost', 'a.b.localhost.']) {
      const result = await sender.send(input(`http://${host}:${receiver.port}/ring`));
      expect([host, result]).toEqual([host, { ok: false, status: null, error: PRIVATE }]);
    }
    // An address host is not looked up, and a name under localhost is loopback without a lookup.
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections).toBe(0);
    expect(receiver.seen).toHaveLength(0);
  });

  it('refuses bad URLs with the contract sentences, never throwing, even when allowed', async () => {
    const resolve = jest.fn(async () => ['127.0.0.1']);
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1', 'hooks.example.test', '0.0.0.0/0'], resolve });
    expect(await sender.send(input(`http://user:pw@127.0.0.1:${receiver.port}/`))).toEqual({
      ok: false,
      status: null,
      error: 'A webhook address cannot carry a name and password.',
    });
    expect(await sender.send(input(`http://user@hooks.example.test:${receiver.port}/`))).toEqual({
      ok: false,
      status: null,
      error: 'A webhook address cannot carry a name and password.',
    });
    for (const url of ['ftp://127.0.0.1/', 'not a url', '']) {
      expect(await sender.send(input(url))).toEqual({ ok: false, status: null, error: 'A webhook needs an http or https URL.' });
    }
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections).toBe(0);
  });

  it('a name that resolves to a private address is refused at send time', async () => {
    const resolve = jest.fn(async (host: string) => (host === 'hooks.example.test' ? ['10.1.2.3'] : []));
    const sender = new HttpWebhookSender({ allow: [], resolve });
    const result = await sender.send(input(`http://hooks.example.test:${receiver.port}/ring`));
    expect(result).toEqual({ ok: false, status: null, error: PRIVATE });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('hooks.example.test');
  });

  it('a name is refused when any of its addresses is refused', async () => {
    const resolve = jest.fn(async () => ['127.0.0.1', '10.1.2.3']);
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'], resolve });
    const result = await sender.send(input(`http://hooks.example.test:${receiver.port}/ring`));
    expect(result).toEqual({ ok: false, status: null, error: PRIVATE });
    expect(receiver.connections).toBe(0);
  });

  it('a failed lookup is a failure, not a throw', async () => {
    const resolve = jest.fn(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.test'), { code: 'ENOTFOUND' });
    });
    const result = await new HttpWebhookSender({ allow: [], resolve }).send(input('https://hooks.example.test/ring'));
    expect(result.ok).toBe(false);
    expect(result.status).toBeNull();
    expect(result.error).toContain('ENOTFOUND');
    const empty = await new HttpWebhookSender({ allow: [], resolve: async () => [] }).send(input('https://hooks.example.test/ring'));
    expect(empty).toMatchObject({ ok: false, status: null });
  });

  it('an allowed name connects to the checked address, resolving once per send', async () => {
    // .test never resolves in real DNS, so reaching the receiver proves the socket went to the
    // address the injected resolver gave and the check passed, with no lookup of its own.
    const answers = ['127.0.0.1', '127.0.0.1', '10.1.2.3'];
    const resolve = jest.fn(async (_host: string) => [answers.shift() as string]);
    const sender = new HttpWebhookSender({ allow: ['hooks.example.test'], resolve });
    const url = `http://hooks.example.test:${receiver.port}/ring`;
    const systemLookup = jest.spyOn(dns, 'lookup');

    expect(await sender.send(input(url))).toEqual({ ok: true, status: 200, error: null });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(await sender.send(input(url))).toEqual({ ok: true, status: 200, error: null });
    expect(resolve).toHaveBeenCalledTimes(2);

    expect(receiver.seen).toHaveLength(2);
    for (const seen of receiver.seen) {
      expect(seen.verified).toBe(true);
      expect(seen.localAddress).toBe('127.0.0.1');
      expect(seen.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    }
    expect(systemLookup).not.toHaveBeenCalled();
    systemLookup.mockRestore();

  });

  it('resolves and checks again on every send: a name that turns private is refused', async () => {
    // Allowed by address, not by name: the first answer passes, the second (rebound) does not.
    const answers = ['127.0.0.1', '10.1.2.3'];
    const resolve = jest.fn(async (_host: string) => [answers.shift() as string]);
    const sender = new HttpWebhookSender({ allow: ['127.0.0.1'], resolve });
    const url = `http://hooks.example.test:${receiver.port}/ring`;

    expect(await sender.send(input(url))).toEqual({ ok: true, status: 200, error: null });
    expect(await sender.send(input(url))).toEqual({ ok: false, status: null, error: PRIVATE });
    expect(resolve).toHaveBeenCalledTimes(2);
    expect(receiver.seen).toHaveLength(1);
    expect(receiver.connections).toBe(1);
  });

  it('check() answers the addresses it checked, for the routes to use when a webhook is saved', async () => {
    const resolve = jest.fn(async () => ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    const sender = new HttpWebhookSender({ allow: [], resolve });
    const checked = await sender.check('https://hooks.example.com/ring');
    expect(checked.host).toBe('hooks.example.com');
    expect(checked.addresses).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    await expect(new HttpWebhookSender({ allow: [], resolve: async () => ['192.168.0.9'] }).check('https://hooks.example.com/')).rejects.toMatchObject({
      code: 'webhook.address_private',
    });
    await expect(sender.check('http://[::1]/')).rejects.toMatchObject({ code: 'webhook.address_private' });
  });
});
