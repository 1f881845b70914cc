/**
 * Fair use of the database (decisions.md › Fair use), over HTTP with real parallel requests: one
 * person cannot fill the requests' pool (heavy reads take at most 2 slots per person, a third is
 * 429 with Retry-After: 1); a request that finds the pool full, or whose statement runs past its
 * limit, answers 503 with Retry-After: 5 rather than 500; the webhook worker and the sweeps go
 * on while the requests' pool is full. Reads are made slow the honest way: a test connection
 * holds a lock the read needs (the charts table, a task row) for as long as the test wants.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { PoolClient } from 'pg';
import { LeaseSweeper } from '../../apps/api/src/runs/lease.sweeper';
import { createTask, expectStatus, within } from '../support/fixtures';
import { readTask } from '../support/builders-a';
import { trelloExport } from '../support/trello';
import { Answer, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const BUSY = 'The server is busy. Try again in a moment.';
const TOO_MANY = 'Too many requests at once. Wait for the others to finish.';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The primary's own pool, slots and limits, whatever the run: the locks the tests hold and the
 * waiters they count are the primary's, while with read replicas (the replica pass) a heavy read
 * may go to a replica and take its slot there (docs/operating.md › Read replicas).
 */
const PRIMARY_ONLY = { DATABASE_READ_URL: '' };

/** A lock held by a connection of the test until released: whatever needs it waits. */
interface Held {
  release(): Promise<void>;
}

// A race by design: a connection of the test's own holds the lock, which no route can do.
async function hold(t: TestApp, statement: string, values: unknown[] = []): Promise<Held> {
  const client: PoolClient = await t.sql.connect();
  await client.query('BEGIN');
  await client.query(statement, values);
  let done = false;
  return {
    async release() {
      if (done) return;
      done = true;
      await client.query('COMMIT');
      client.release();
    },
  };
}

/** Waits until `n` of the service's requests wait on a lock (so they hold their connections): the server's own view, no route shows it. */
async function waitersReach(t: TestApp, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await t.sql.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'task-board' AND wait_event_type = 'Lock'`,
    );
    if (rows[0].n >= n) return;
    await sleep(25);
  }
  throw new Error(`fewer than ${n} requests came to wait on the lock`);
}

function expectBusy(res: Answer): void {
  expect({ status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, body: { error: BUSY }, retryAfter: '5' });
}

function expectTooMany(res: Answer): void {
  expect({ status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 429, body: { error: TOO_MANY }, retryAfter: '1' });
}

/** A person with a project of their own and a chart over it. */
async function personWithChart(t: TestApp, name: string, key: string): Promise<Person & { projectId: string; chartId: string }> {
  const person = await registerPerson(t, name);
  const projectId = (await createProject(person.client, `${name}'s`, key)).id;
  const chart = await expectStatus(person.client.post('/charts', { name: 'Burn', kind: 'burnup', projectIds: [projectId] }), 201);
  return { ...person, projectId, chartId: chart.chart.id };
}

const chartData = (p: { client: Client; chartId: string }) => p.client.get(`/charts/${p.chartId}/data`);

/** A webhook receiver on 127.0.0.1 that answers 200 and keeps every body. */
class Receiver {
  readonly bodies: string[] = [];
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      this.bodies.push(body);
      res.writeHead(200).end('ok');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

describe('fair use: a small pool of 3 connections', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await startTestApp({ env: { ...PRIMARY_ONLY, DATABASE_POOL_SIZE: '3', DATABASE_WAIT_MS: '2500', SERVICE_WEBHOOK_ALLOW: '127.0.0.1' } });
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it("one person's many heavy reads take 2 connections, the rest are 429 at once, and another person's board still answers", async () => {
    const ann = await personWithChart(t, 'Ann', 'ANN');
    const bob = await registerPerson(t, 'Bob');
    const bobs = await createProject(bob.client, "Bob's", 'BOB');
    const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
    let reads: Promise<Answer>[] = [];
    try {
      reads = Array.from({ length: 8 }, () => chartData(ann));
      const early = await Promise.all(reads.map((r) => within(r, 5000)));
      const refused = early.filter((r): r is Answer => r !== null);
      expect(refused).toHaveLength(6);
      for (const res of refused) expectTooMany(res);
      await waitersReach(t, 2);
      // The pool's third connection is free for everybody else.
      const board = await within(bob.client.get(`/projects/${bobs.id}/board`), 5000);
      expect(board?.status).toBe(200);
    } finally {
      await lock.release();
    }
    const answers = await Promise.all(reads);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    // The slots went with their transactions: Ann reads again.
    expect((await chartData(ann)).status).toBe(200);
  });

  it('a request that finds the pool full answers 503 with Retry-After: 5 (not 500), while the webhook worker and the lease sweep go on', async () => {
    const ann = await personWithChart(t, 'Ann', 'ANX');
    const cal = await personWithChart(t, 'Cal', 'CAL');
    const bob = await registerPerson(t, 'Bob');
    const bobs = await createProject(bob.client, "Bob's", 'BOX');
    const hook = await expectStatus(bob.client.post(`/projects/${bobs.id}/webhooks`, { url: receiver.url }), 201);
    const agent = await createAgent(bob.client, bobs.id);
    const task = await createTask(bob.client, bobs.id, 'Runs long');
    const run = await expectStatus(agent.client.post(`/tasks/${task.id}/run`, { goal: 'work', steps: ['a'] }), 201);
    // A forced clock: thirty minutes of silence cannot pass in a test.
    await t.sql.query(`UPDATE runs SET updated_at = now() - interval '31 minutes', beat_at = now() - interval '31 minutes' WHERE id = $1`, [run.run.id]);

    const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
    let reads: Promise<Answer>[] = [];
    try {
      // Ann's two reads and Cal's one hold all three connections of the requests' pool.
      reads = [chartData(ann), chartData(ann), chartData(cal)];
      await waitersReach(t, 3);
      const started = Date.now();
      const board = await bob.client.get(`/projects/${bobs.id}/board`);
      expectBusy(board);
      expect(Date.now() - started).toBeLessThan(5000);

      // Background work has connections of its own: a delivery that comes due is sent… (written
      // straight in: the requests' pool is full, so no route can make one now)
      await t.sql.query(
        `INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, body, next_try_at) VALUES (gen_random_uuid(), $1, $2, 'task.created', '{"marker":"while full"}', now())`,
        [bobs.id, (hook as { webhook: { id: string } }).webhook.id],
      );
      for (let i = 0; i < 100 && !receiver.bodies.includes('{"marker":"while full"}'); i++) await sleep(50);
      expect(receiver.bodies).toContain('{"marker":"while full"}');
      // …and the lease sweep closes the run whose agent stopped reporting.
      expect(await within(t.app.get(LeaseSweeper).tick().then(() => 'swept'), 5000)).toBe('swept');
      // Read from storage while the pool is still full: no route can answer now.
      expect((await t.sql.query('SELECT status FROM runs WHERE id = $1', [run.run.id])).rows[0].status).toBe('lost');
    } finally {
      await lock.release();
    }
    expect((await Promise.all(reads)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await bob.client.get(`/projects/${bobs.id}/board`)).status).toBe(200);
  });
});

describe('fair use: heavy reads per person', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: PRIMARY_ONLY });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a third heavy read of one person is 429 with Retry-After: 1 (an import preview too), while another person’s heavy read goes', async () => {
    const ann = await personWithChart(t, 'Ann', 'ANN');
    const bea = await personWithChart(t, 'Bea', 'BEA');
    const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
    let held: Promise<Answer>[] = [];
    let beas: Promise<Answer> | undefined;
    try {
      held = [chartData(ann), chartData(ann)];
      await waitersReach(t, 2);
      expectTooMany(await chartData(ann));
      expectTooMany(await ann.client.post(`/projects/${ann.projectId}/import/preview`, trelloExport({ cards: 3 })));
      expectTooMany(await ann.client.post(`/projects/${ann.projectId}/import`, trelloExport({ cards: 3 })));
      // Bea's read is not refused: it takes a slot of her own and waits on the lock like Ann's.
      beas = chartData(bea);
      await waitersReach(t, 3);
      expect(await within(beas, 300)).toBeNull();
    } finally {
      await lock.release();
    }
    expect((await beas!).status).toBe(200);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    // Nothing was imported by the refused import.
    const board = await expectStatus(ann.client.get(`/projects/${ann.projectId}/board`), 200);
    expect([board.tasks.length, board.archived.length]).toEqual([0, 0]);
    expect((await ann.client.post(`/projects/${ann.projectId}/import/preview`, trelloExport({ cards: 3 }))).status).toBe(200);
  });
  it('the slots hold across instances: two reads on one instance, the third on another is 429', async () => {
    const other = await startTestApp({ databaseUrl: t.databaseUrl, env: PRIMARY_ONLY });
    try {
      const ann = await personWithChart(t, 'Ann', 'ANY');
      // The same session, sent to the second instance (as a load balancer would).
      const there = new Client(other.api);
      there.cookie = ann.client.cookie;
      const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
      let held: Promise<Answer>[] = [];
      try {
        held = [chartData(ann), chartData(ann)];
        await waitersReach(t, 2);
        expectTooMany(await there.get(`/charts/${ann.chartId}/data`));
      } finally {
        await lock.release();
      }
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
      expect((await there.get(`/charts/${ann.chartId}/data`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('fair use: statement limits (1 s for requests, 3 s for heavy reads, set small for the test)', () => {
  let t: TestApp;
  let ann: Person & { projectId: string; chartId: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { ...PRIMARY_ONLY, DATABASE_STATEMENT_MS: '1000', DATABASE_HEAVY_STATEMENT_MS: '3000' } });
    ann = await personWithChart(t, 'Ann', 'ANN');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a write that waits on a row lock past its limit answers 503 with Retry-After: 5 and writes nothing', async () => {
    const task = await createTask(ann.client, ann.projectId, 'Before');
    const lock = await hold(t, 'SELECT 1 FROM tasks WHERE id = $1 FOR UPDATE', [task.id]);
    let res: Answer | null;
    try {
      res = await within(ann.client.patch(`/tasks/${task.id}`, { title: 'After' }), 2500);
    } finally {
      await lock.release();
    }
    expect(res).not.toBeNull();
    expectBusy(res!);
    expect((await readTask(ann.client, task.id)).title).toBe('Before');
    expect((await ann.client.patch(`/tasks/${task.id}`, { title: 'After' })).status).toBe(200);
  });

  it('a heavy read runs under the longer limit: it outlasts a wait that stops an ordinary read', async () => {
    const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
    let heavy: Promise<Answer>;
    let ordinary: Answer | null;
    try {
      heavy = chartData(ann);
      ordinary = await within(ann.client.get('/charts'), 2500);
      await sleep(300);
    } finally {
      await lock.release();
    }
    expect(ordinary).not.toBeNull();
    expectBusy(ordinary!);
    expect((await heavy!).status).toBe(200);
  });

  it('a heavy read past its own limit answers 503 with Retry-After: 5', async () => {
    const lock = await hold(t, 'LOCK TABLE charts IN ACCESS EXCLUSIVE MODE');
    let res: Answer | null;
    try {
      res = await within(chartData(ann), 5000);
    } finally {
      await lock.release();
    }
    expect(res).not.toBeNull();
    expectBusy(res!);
    expect((await chartData(ann)).status).toBe(200);
  });
});
