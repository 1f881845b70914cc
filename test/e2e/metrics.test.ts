/**
 * Seeing it run (issue #30, point 5): `GET /api/metrics` in Prometheus's text format behind its
 * own bearer (off, as an unknown address, without SERVICE_METRICS_TOKEN), the request id on every
 * answer, and JSON log lines carrying it.
 */
import { LeaseSweeper } from '../../apps/api/src/runs/lease.sweeper';
import { NotificationRetentionSweeper } from '../../apps/api/src/notifications/notification-retention.sweeper';
import { freePort } from '../support/free-port';
import { SseReader } from '../support/sse';
import { Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'scrape-me-0123456789abcdef';
const NOT_FOUND = { error: 'Not found.' };
const MISSING = { error: 'Send the metrics token as a bearer token.' };
const WRONG = { error: 'That is not the metrics token.' };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, read strictly: a line that is neither a comment nor a sample fails the test. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    // Prometheus reads NaN in any case (prom-client writes `Nan` for a lag not measured yet).
    const value = /^nan$/i.test(match[3]) ? NaN : /^[+-]inf$/i.test(match[3]) ? Number(`${match[3][0]}Infinity`) : Number(match[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(match[3])) throw new Error(`not a number: ${line}`);
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}

describe('metrics and request ids', () => {
  let t: TestApp;
  let off: TestApp;
  let owner: Person;
  const written: string[] = [];
  let spy: jest.SpyInstance;

  const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, app = t) => new Client(app.api).get<unknown>('/metrics', { headers });
  const samples = async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    return parseExposition(res.body as string);
  };
  const value = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
    all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
  /** Scrapes until `ready` holds (the worker and the stream work beside the test). */
  const scrapeUntil = async (ready: (all: Sample[]) => boolean, ms = 10_000): Promise<Sample[]> => {
    const until = Date.now() + ms;
    for (;;) {
      const all = await samples();
      if (ready(all) || Date.now() > until) return all;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    // Lines are read from stdout as an operator's log shipper would.
    spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
    t = await startTestApp({ env: { SERVICE_METRICS_TOKEN: TOKEN, LOG_FORMAT: 'json', LOG_LEVEL: 'info', SERVICE_WEBHOOK_ALLOW: '127.0.0.1' } });
    off = await startTestApp();
    owner = await registerPerson(t, 'Opal');
  });
  afterAll(async () => {
    spy.mockRestore();
    await t?.close();
    await off?.close();
  });

  it('is off without SERVICE_METRICS_TOKEN: 404 like an address no route takes, whatever the bearer', async () => {
    const unknown = await new Client(off.api).get('/no-such-route');
    expect(unknown).toMatchObject({ status: 404, body: NOT_FOUND });
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await scrape(headers, off);
      expect(res).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(res.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
    }
  });

  it('answers only its bearer: none, another scheme, a session or an agent token is 401', async () => {
    expect(await scrape({})).toMatchObject({ status: 401, body: MISSING });
    expect(await scrape({ authorization: `Basic ${TOKEN}` })).toMatchObject({ status: 401, body: MISSING });
    expect(await scrape({ authorization: `Bearer ${TOKEN}x` })).toMatchObject({ status: 401, body: WRONG });
    expect(await scrape({ authorization: 'Bearer svc_not-the-metrics-token' })).toMatchObject({ status: 401, body: WRONG });
    // A signed-in person's cookie is no metrics token either.
    expect(await owner.client.get('/metrics')).toMatchObject({ status: 401, body: MISSING });
  });

  it('answers the text format: requests by route pattern and status, latency histograms, pools', async () => {
    const project = await createProject(owner.client, 'Metered', 'MET');
    expect((await owner.client.get(`/projects/${project.id}/board`)).status).toBe(200);
    expect((await owner.client.get(`/projects/${project.id}/nothing-here`)).status).toBe(404);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const all = parseExposition(res.body as string);
    const board = { method: 'GET', route: '/api/projects/:projectId/board' };
    expect(value(all, 'board_http_requests_total', { ...board, status: '200' })).toBe(1);
    // The pattern, never the address: no label holds the project's id; unknown addresses share one label.
    expect((res.body as string).includes(project.id)).toBe(false);
    expect(value(all, 'board_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(value(all, 'board_http_request_duration_seconds_count', board)).toBe(1);
    expect(value(all, 'board_http_request_duration_seconds_bucket', { ...board, le: '+Inf' })).toBe(1);
    expect(all.filter((s) => s.name === 'board_http_request_duration_seconds_bucket' && s.labels.route === board.route).map((s) => s.labels.le)).toContain('0.005');
    expect(value(all, 'board_db_pool_max', { pool: 'requests' })).toBe(5);
    expect(value(all, 'board_db_pool_max', { pool: 'background' })).toBe(2);
    for (const state of ['busy', 'idle']) expect(value(all, 'board_db_pool_connections', { pool: 'requests', state })).toEqual(expect.any(Number));
    expect(value(all, 'board_db_pool_waiting', { pool: 'requests' })).toBe(0);
    expect(value(all, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
    // The refusals of the test before were counted, under their own status.
    expect(value(all, 'board_http_requests_total', { method: 'GET', route: '/api/metrics', status: '401' })).toBeGreaterThanOrEqual(4);
  });

  it('counts open streams while they are open, and the notices heard', async () => {
    const project = await createProject(owner.client, 'Streamed', 'STR');
    const before = value(await samples(), 'board_streams_open', { kind: 'project' }) ?? 0;
    const stream = await SseReader.open(`${t.api}/projects/${project.id}/stream`, { cookie: `service_session=${owner.client.cookie}` });
    try {
      await stream.waitFor((e) => e.event === 'ready');
      expect(value(await samples(), 'board_streams_open', { kind: 'project' })).toBe(before + 1);
      expect((await owner.client.post(`/projects/${project.id}/tasks`, { title: 'Heard' })).status).toBe(201);
      await stream.waitFor((e) => e.event === 'change');
      expect(value(await samples(), 'board_notices_heard_total', { type: 'change' })).toBeGreaterThanOrEqual(1);
    } finally {
      stream.close();
    }
    const closed = await scrapeUntil((all) => value(all, 'board_streams_open', { kind: 'project' }) === before);
    expect(value(closed, 'board_streams_open', { kind: 'project' })).toBe(before);
  });

  it('shows the webhook outbox of every project: a delivery to a dead address is pending and failed, with its age', async () => {
    const project = await createProject(owner.client, 'Hooked', 'HKD');
    const dead = `http://127.0.0.1:${await freePort()}/hook`;
    const hook = await owner.client.post<{ webhook: { id: string } }>(`/projects/${project.id}/webhooks`, { url: dead });
    expect(hook.status).toBe(201);
    expect((await owner.client.post(`/projects/${project.id}/webhooks/${hook.body.webhook.id}`)).status).toBe(202);
    const all = await scrapeUntil((s) => (value(s, 'board_webhook_deliveries_failed') ?? 0) >= 1);
    expect(value(all, 'board_webhook_backlog_read')).toBe(1);
    expect(value(all, 'board_webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
    expect(value(all, 'board_webhook_deliveries_failed')).toBeGreaterThanOrEqual(1);
    expect(value(all, 'board_webhook_deliveries_oldest_seconds', { state: 'pending' })).toBeGreaterThan(0);
    expect(value(all, 'board_webhook_deliveries_oldest_seconds', { state: 'failed' })).toBeGreaterThan(0);
    expect(value(all, 'board_webhook_tries_total', { outcome: 'retry' })).toBeGreaterThanOrEqual(1);
    expect(value(all, 'board_jobs_leased_total', { job: 'webhook-delivery' })).toBeGreaterThanOrEqual(1);
  });

  it('counts the sweeps by outcome, with their time', async () => {
    await t.app.get(LeaseSweeper).tick();
    await t.app.get(NotificationRetentionSweeper).tick();
    const all = await samples();
    expect(value(all, 'board_sweeps_total', { sweep: 'run-lease', outcome: 'done' })).toBe(1);
    expect(value(all, 'board_sweeps_total', { sweep: 'notification-retention', outcome: 'done' })).toBe(1);
    expect(value(all, 'board_sweep_duration_seconds_count', { sweep: 'run-lease' })).toBe(1);
  });

  it('answers X-Request-Id: the caller’s when short and plain, else a new one', async () => {
    const anon = new Client(t.api);
    const given = 'edge-7f3a.c0ffee_01';
    expect((await anon.get('/version', { headers: { 'x-request-id': given } })).headers.get('x-request-id')).toBe(given);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const junk of ['has space', 'x'.repeat(65), 'line\tbreak', 'quote"d', '{"json":1}', 'ünïcode', '']) {
      const id = (await anon.get('/version', { headers: { 'x-request-id': junk } })).headers.get('x-request-id');
      expect([junk, id]).toEqual([junk, expect.stringMatching(uuid)]);
    }
    const first = (await anon.get('/version')).headers.get('x-request-id');
    const second = (await anon.get('/version')).headers.get('x-request-id');
    expect(first).toMatch(uuid);
    expect(second).not.toBe(first);
    // Refusals carry it too, and so does a stream, which writes its own head.
    expect((await anon.get('/no-such-route', { headers: { 'x-request-id': 'refused-1' } })).headers.get('x-request-id')).toBe('refused-1');
    const project = await createProject(owner.client, 'Stream id', 'SID');
    const stream = await SseReader.open(`${t.api}/projects/${project.id}/stream`, { cookie: `service_session=${owner.client.cookie}`, 'x-request-id': 'stream-1' });
    stream.close();
    expect(stream.headers['x-request-id']).toBe('stream-1');
  });

  it('writes one JSON object per line, a request’s with its id, route and status, never the metrics token', async () => {
    const id = 'log-line-42';
    await new Client(t.api).get('/version?token=svcr_querysecret', { headers: { 'x-request-id': id } });
    await scrape();
    // The line is written once the answer is sent: wait for it.
    const until = Date.now() + 5000;
    while (!written.join('').includes(`"reqId":"${id}"`) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const lines = written.join('').split('\n').filter(Boolean);
    const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = objects.find((o) => o.reqId === id);
    expect(line).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: id,
      context: 'http',
      msg: 'request',
      method: 'GET',
      path: '/api/version',
      route: '/api/version',
      status: 200,
      ms: expect.any(Number),
      ip: '127.0.0.1',
    });
    expect(objects.some((o) => o.route === '/api/metrics' && o.status === 200)).toBe(true);
    const all = written.join('');
    for (const secret of [TOKEN, 'svcr_querysecret', owner.client.cookie!]) expect(all).not.toContain(secret);
  });
});
