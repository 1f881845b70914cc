/**
 * Read replicas against a real streaming replica (issue 30): a primary and a hot standby made by
 * `pg_basebackup -R` (test/support/replica.ts), the service with DATABASE_READ_URL, and replay
 * paused on the replica (`pg_wal_replay_pause()`) to make it lag as long as the test wants.
 * Proves: a caller never reads an answer older than its own last write (cookie or header), the
 * board, a view's tasks, the feed, search, lists, charts and usage included; another caller may
 * read stale data, but never staler than the bound; a notice or a `ready` is never followed by a
 * re-read that misses what it announced; the board's reused lists stay true to the server they
 * were read from; and once replay resumes the replica answers again.
 */
import { Client as PgClient } from 'pg';
import { DatabaseLanes, ReplicaRouter } from '@board/persistence';
import { BoardClient } from '@board/client';
import { expectStatus } from '../support/fixtures';
import { postgresBinDir, REPLICA_HINT, ReplicaPair, startReplicaPair } from '../support/replica';
import { SseReader } from '../support/sse';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const binaries = postgresBinDir();
if (!binaries) process.stderr.write(`\n!!! READ REPLICA TESTS SKIPPED: ${REPLICA_HINT} !!!\n\n`);
const describeReplica = binaries ? describe : describe.skip;

/** Wider than the default 200 ms, so that "a read within the bound" holds on a busy machine. */
const MAX_LAG_MS = 600;
const METRICS_TOKEN = 'replica-metrics-token-0123456789';

describeReplica('read replicas, against a real streaming replica', () => {
  let pair: ReplicaPair;
  let t: TestApp;
  let router: ReplicaRouter;
  let replica: PgClient;
  let primary: PgClient;
  let owner: Person;
  let member: Person;
  let projectId: string;

  const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

  beforeAll(async () => {
    pair = await startReplicaPair(binaries);
    primary = new PgClient({ connectionString: pair.primaryUrl });
    await primary.connect();
    await primary.query('CREATE DATABASE board');
    replica = new PgClient({ connectionString: pair.replicaUrl });
    await replica.connect();
    await caughtUp();
    t = await startTestApp({
      databaseUrl: withDatabase(pair.primaryUrl, 'board'),
      env: { DATABASE_READ_URL: withDatabase(pair.replicaUrl, 'board'), DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS), SERVICE_METRICS_TOKEN: METRICS_TOKEN },
    });
    router = t.app.get(DatabaseLanes).replicas;
    owner = await registerPerson(t, 'Owner');
    member = await registerPerson(t, 'Member');
    projectId = (await createProject(owner.client, 'Replicated')).id;
    await addMember(owner.client, projectId, member);
  }, 60_000);

  afterAll(async () => {
    await replica?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await t?.close();
    await replica?.end();
    await primary?.end();
    await pair?.stop();
  });

  /**
   * Until the replica has replayed everything the primary has written so far, and the service has
   * measured it so (a round of its samples is 50 ms).
   */
  async function caughtUp(): Promise<void> {
    const target = (await primary.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0].l;
    for (const deadline = Date.now() + 20_000; ; ) {
      const { rows } = await replica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target]);
      if (rows[0].done) break;
      if (Date.now() > deadline) throw new Error('the replica did not catch up');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  async function pausedReplay<T>(work: () => Promise<T>): Promise<T> {
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      return await work();
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
      await caughtUp();
    }
  }

  /** What `work` sent where (reads declared @ReplicaRead only). */
  async function servedDuring(work: () => Promise<unknown>): Promise<{ primary: number; replica: number }> {
    const before = router.served;
    await work();
    const after = router.served;
    return { primary: after.primary - before.primary, replica: after.replicas[0] - before.replicas[0] };
  }

  const newTask = async (title: string, c: Client = owner.client) => (await expectStatus(c.post(`/projects/${projectId}/tasks`, { title }), 201)).task;
  const boardTitles = async (c: Client) => (await expectStatus(c.get(`/projects/${projectId}/board`), 200)).tasks.map((task) => task.title);
  /** A reader with no position of its own: a fresh session of the member, who never wrote. */
  const stranger = () => Object.assign(new Client(t.api), { cookie: member.client.cookie });

  it('sends reads to the replica while it keeps up, and only the declared reads', async () => {
    await caughtUp();
    const served = await servedDuring(async () => {
      await boardTitles(stranger());
      await expectStatus(stranger().get(`/projects/${projectId}/activity`), 200);
      // Not a read declared @ReplicaRead: the primary answers, and no one counts it.
      await expectStatus(stranger().get('/auth/me'), 200);
    });
    expect(served).toEqual({ primary: 0, replica: 2 });
    const { rows } = await replica.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'task-board-replica'");
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('shows operators the replica: its lag, whether reads may go to it, its pool and where reads went', async () => {
    const scrape = async () => {
      const res = await fetch(`${t.api}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const number = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    await caughtUp();
    await boardTitles(stranger());
    const before = await scrape();
    expect(number(before, 'board_replica_current{replica="replica 1"}')).toBe(1);
    expect(number(before, 'board_replica_lag_seconds{replica="replica 1"}')).toBeLessThan(MAX_LAG_MS / 1000);
    expect(number(before, 'board_replica_reads_total{server="replica 1"}')).toBeGreaterThan(0);
    expect(before).toMatch(/^board_db_pool_max\{pool="replica 1"\} \d+$/m);
    // Replay paused past the bound: the replica is not current, its lag grows, reads go to the primary.
    await pausedReplay(async () => {
      await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'Lagging' }), 201);
      await new Promise((r) => setTimeout(r, MAX_LAG_MS + 200));
      await boardTitles(stranger());
      const during = await scrape();
      expect(number(during, 'board_replica_current{replica="replica 1"}')).toBe(0);
      expect(number(during, 'board_replica_lag_seconds{replica="replica 1"}')).toBeGreaterThan(MAX_LAG_MS / 1000);
      expect(number(during, 'board_replica_reads_total{server="primary"}')).toBeGreaterThan(number(before, 'board_replica_reads_total{server="primary"}') || 0);
    });
  });

  it('answers a write with its position: a header, and for a session a short-lived cookie', async () => {
    const res = await owner.client.post(`/projects/${projectId}/tasks`, { title: 'Positioned' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-service-lsn')).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('service_lsn='));
    expect(cookie).toBe(`service_lsn=${res.headers.get('x-service-lsn')}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2`);
    // A write in a transaction answers with one too.
    expect((await owner.client.post('/lists', { name: 'Positioned' })).headers.get('x-service-lsn')).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    // A read writes nothing: no position.
    const read = await owner.client.get(`/projects/${projectId}/board`);
    expect(read.headers.get('x-service-lsn')).toBeNull();
    expect(read.headers.get('set-cookie')).toBeNull();
  });

  it('shows a person their own writes with replay paused: board, view tasks, feed, search, lists, charts, usage', async () => {
    const view = (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).views[0];
    /** The owner's session in a fresh client: no position yet but what its own writes bring. */
    const asOwner = () => Object.assign(new Client(t.api), { cookie: owner.client.cookie });
    await pausedReplay(async () => {
      const served = await servedDuring(async () => {
        // A write in a transaction: its position comes with its COMMIT.
        const lists = asOwner();
        await expectStatus(lists.post('/lists', { name: 'Reading' }), 201);
        expect((await expectStatus(lists.get('/lists'), 200)).lists.map((l) => l.name)).toContain('Reading');
        // A one-statement write (a task create): its position is read after it.
        const tasks = asOwner();
        const task = await newTask('Zebra crossing', tasks);
        expect(await boardTitles(tasks)).toContain('Zebra crossing');
        const inView = await expectStatus(tasks.get(`/views/${view.id}/tasks`), 200);
        expect(JSON.stringify(inView)).toContain(task.id);
        const feed = await expectStatus(tasks.get(`/projects/${projectId}/activity`), 200);
        expect(feed.activity.some((line) => line.kind === 'created' && line.taskId === task.id)).toBe(true);
        const found = await expectStatus(tasks.get('/search?q=zebra'), 200);
        expect(found.hits.map((h) => h.task.id)).toContain(task.id);
        await expectStatus(tasks.get(`/projects/${projectId}/usage`), 200);
        const charts = asOwner();
        const chart = (await expectStatus(charts.post('/charts', { name: 'Burn', kind: 'burnup', projectIds: [projectId] }), 201)).chart;
        expect((await expectStatus(charts.get('/charts'), 200)).charts.map((c) => c.id)).toContain(chart.id);
        await expectStatus(charts.get(`/charts/${chart.id}/data`), 200);
      });
      // Every read carried a position of the caller's own, which the paused replica never reached.
      expect(served).toEqual({ primary: 8, replica: 0 });
    });
  });

  it('shows a token caller its own writes through the TypeScript client, which sends the position back itself', async () => {
    const { token } = await createAgent(owner.client, projectId, 'Replica robot');
    const agent = new BoardClient({ baseUrl: new URL(t.api).origin, token });
    await pausedReplay(async () => {
      await agent.call(agent.api.POST('/api/projects/{projectId}/tasks', { params: { path: { projectId } }, body: { title: 'Written by a robot' } }));
      expect(agent.headers()['x-service-lsn']).toMatch(/\//);
      expect((await agent.board(projectId)).tasks.map((task) => task.title)).toContain('Written by a robot');
    });
  });

  it('lets another caller read stale data while replay is paused, never staler than the bound', async () => {
    await caughtUp();
    const reads: Array<{ at: number; fresh: boolean }> = [];
    let written = 0;
    await pausedReplay(async () => {
      await newTask('Seen late');
      written = Date.now();
      for (const end = written + 2 * MAX_LAG_MS; Date.now() < end; ) {
        const at = Date.now();
        reads.push({ at, fresh: (await boardTitles(stranger())).includes('Seen late') });
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    // The replica answered at first, from before the write: the test can tell.
    expect(reads.filter((r) => !r.fresh).length).toBeGreaterThan(0);
    // A read that started a bound after the write was answered shows it.
    const late = reads.filter((r) => r.at >= written + MAX_LAG_MS);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((r) => !r.fresh)).toEqual([]);
    // And once replay goes on, the replica answers again, with the write.
    const served = await servedDuring(async () => expect(await boardTitles(stranger())).toContain('Seen late'));
    expect(served).toEqual({ primary: 0, replica: 1 });
  });

  it('keeps the board’s reused lists true to the server each read came from', async () => {
    await caughtUp();
    const before = await boardTitles(stranger());
    await pausedReplay(async () => {
      await newTask('Only on the primary');
      // The owner's read (primary, with the write) builds and keeps the newer lists…
      expect(await boardTitles(owner.client)).toEqual([...before, 'Only on the primary']);
      // …and a read on the replica, whose fingerprint is older, must not be answered with them.
      const served = await servedDuring(async () => expect(await boardTitles(stranger())).toEqual(before));
      expect(served).toEqual({ primary: 0, replica: 1 });
      // The owner again: the older lists kept meanwhile are not served for the newer rows.
      expect(await boardTitles(owner.client)).toEqual([...before, 'Only on the primary']);
    });
    expect(await boardTitles(stranger())).toEqual([...before, 'Only on the primary']);
  });

  it('sends a change notice only once a re-read, on any server, shows the change', async () => {
    await caughtUp();
    const stream = await SseReader.open(`${t.api}/projects/${projectId}/stream`, { cookie: `service_session=${member.client.cookie}` });
    try {
      await stream.waitFor((e) => e.event === 'ready');
      await pausedReplay(async () => {
        const sent = Date.now();
        const clientId = 'notice-then-read';
        await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'Announced' }, { headers: { 'x-service-client': clientId } }), 201);
        await stream.waitFor((e) => e.event === 'change' && e.data?.clientId === clientId, 1, 10_000);
        // The paused replica cannot show it: the notice waited out the bound.
        expect(Date.now() - sent).toBeGreaterThanOrEqual(MAX_LAG_MS - 50);
        expect(await boardTitles(stranger())).toContain('Announced');
      });
    } finally {
      stream.close();
    }
  });

  it('sends a stream’s ready only once a re-read shows every write made before it subscribed', async () => {
    await caughtUp();
    await pausedReplay(async () => {
      await newTask('Before the ready');
      const stream = await SseReader.open(`${t.api}/projects/${projectId}/stream`, { cookie: `service_session=${member.client.cookie}` });
      try {
        await stream.waitFor((e) => e.event === 'ready', 1, 10_000);
        expect(stream.events.slice(0, 2)).toEqual([{ retry: 3000 }, { event: 'ready', data: {} }]);
        expect(await boardTitles(stranger())).toContain('Before the ready');
      } finally {
        stream.close();
      }
    });
  });

  it('takes a heavy read’s slot on the replica the read went to', async () => {
    await caughtUp();
    const served = await servedDuring(async () => {
      await expectStatus(stranger().get('/search?q=zebra'), 200);
      await expectStatus(stranger().get(`/projects/${projectId}/usage`), 200);
    });
    expect(served).toEqual({ primary: 0, replica: 2 });
  });
});
