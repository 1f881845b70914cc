/**
 * The service behind a real PgBouncer in transaction mode (issue 30): the pooler really hands a
 * server connection to another client at every transaction's end (so a named prepared statement
 * or a session setting does not follow its client), and the service, told so by DATABASE_POOLER,
 * still works: writes and reads, the requests' statement limit (set per transaction), the stream
 * (LISTEN on the direct DATABASE_LISTEN_URL) and the migrations' lock.
 */
import { Client as PgClient } from 'pg';
import { Database } from '@board/persistence';
import { pgbouncerPresent, PGBOUNCER_HINT, RunningPgBouncer, startPgBouncer } from '../support/pgbouncer';
import { createDatabase, serverUrl } from '../support/database';
import { SseReader } from '../support/sse';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';
import { loadConfig } from '../../apps/api/src/config/app-config';

const present = pgbouncerPresent();
if (!present) process.stderr.write(`\n!!! PGBOUNCER TESTS SKIPPED: no PgBouncer found; ${PGBOUNCER_HINT} !!!\n\n`);
const describePooler = present ? describe : describe.skip;

describePooler('behind PgBouncer in transaction mode', () => {
  let bouncer: RunningPgBouncer;
  let db: { name: string; url: string; drop: () => Promise<void> };
  let pooledUrl: string;

  beforeAll(async () => {
    bouncer = await startPgBouncer(serverUrl());
    db = await createDatabase();
    const url = new URL(bouncer.url);
    url.pathname = `/${db.name}`;
    pooledUrl = url.toString();
  });
  afterAll(async () => {
    await bouncer?.stop();
    await db?.drop();
  });

  async function pooledClients<T>(work: (a: PgClient, b: PgClient) => Promise<T>): Promise<T> {
    const a = new PgClient({ connectionString: pooledUrl });
    const b = new PgClient({ connectionString: pooledUrl });
    await a.connect();
    await b.connect();
    try {
      return await work(a, b);
    } finally {
      await a.end();
      await b.end();
    }
  }

  it('hands server connections over between transactions (what the service must not rely on)', async () => {
    await pooledClients(async (a, b) => {
      // Two clients, each in a transaction at once: two server connections.
      await a.query('BEGIN');
      await b.query('BEGIN');
      const pa = (await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const pb = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      expect(pa).not.toBe(pb);
      await a.query('COMMIT');
      await b.query('COMMIT');
      // Outside a transaction, a's statements land on whichever server connection is free: after
      // b holds one in a transaction, a prepared statement of a's may be on the other one.
      const seen = new Set<number>();
      for (let i = 0; i < 20; i++) {
        await b.query('BEGIN');
        seen.add((await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        await b.query('COMMIT');
        seen.add((await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      }
      expect(seen.size).toBeGreaterThan(1);
    });
  });

  it('refuses a start behind the pooler without a direct connection for LISTEN', () => {
    expect(() => loadConfig({ DATABASE_URL: pooledUrl, DATABASE_POOLER: 'transaction' })).toThrow(
      'Invalid configuration: DATABASE_LISTEN_URL must name a direct connection to PostgreSQL when DATABASE_POOLER is set',
    );
    expect(loadConfig({ DATABASE_URL: pooledUrl, DATABASE_POOLER: 'transaction', DATABASE_LISTEN_URL: db.url }).sessions).toBe(false);
  });

  describe('the service, told DATABASE_POOLER=transaction', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        databaseUrl: pooledUrl,
        env: { DATABASE_POOLER: 'transaction', DATABASE_LISTEN_URL: db.url, DATABASE_STATEMENT_MS: '300' },
      });
    });
    afterAll(() => t?.close());

    it('writes and reads through the pooler, the hot prepared writes included', async () => {
      const owner = await registerPerson(t, 'Ada');
      const project = await createProject(owner.client, 'Pooled', 'POOL');
      const board = await owner.client.get<{ columns: unknown[] }>(`/projects/${project.id}/board`);
      expect(board.status).toBe(200);
      // Many creates and moves: each would fail with "prepared statement … does not exist" (or
      // "already exists") on a foreign server connection if the service named its statements.
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await owner.client.post<{ task: { id: string } }>(`/projects/${project.id}/tasks`, { title: `Task ${i}` });
        expect(res.status).toBe(201);
        ids.push(res.body.task.id);
      }
      const moved = await Promise.all(
        ids.slice(0, 10).map((id) => owner.client.post(`/tasks/${id}/move`, { afterId: ids[29] })),
      );
      expect(moved.map((r) => r.status)).toEqual(Array(10).fill(200));
      const read = await owner.client.get(`/projects/${project.id}/board`);
      expect(read.status).toBe(200);
      for (let i = 0; i < 30; i++) expect(JSON.stringify(read.body)).toContain(`"Task ${i}"`);
    });

    it('keeps the requests\' statement limit, set by each transaction, and leaves nothing on the server connection', async () => {
      const database = t.app.get(Database);
      // Inside a transaction and outside one: both cut at 300 ms.
      await expect(database.transaction(() => database.query('SELECT pg_sleep(2)'))).rejects.toMatchObject({ code: 'server.busy' });
      await expect(database.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: 'server.busy' });
      // The pooler's server connections keep the server's default (no limit): SET LOCAL ended with
      // its transaction, so a client of the pooler that sets nothing is not cut.
      await pooledClients(async (a) => {
        const rows = await a.query<{ limit: string }>("SELECT current_setting('statement_timeout') AS limit");
        expect(rows.rows[0].limit).toBe('0');
      });
    });

    it('hears its notices on the direct connection: a stream sees a write', async () => {
      const owner = await registerPerson(t, 'Bo');
      const project = await createProject(owner.client, 'Streamed', 'STRM');
      const stream = await SseReader.open(`${t.api}/projects/${project.id}/stream`, { cookie: `service_session=${owner.client.cookie}` });
      try {
        expect(stream.status).toBe(200);
        await stream.waitFor((e) => e.event === 'ready');
        const res = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'Heard' }, { headers: { 'x-service-client': 'pooled-writer' } });
        expect(res.status).toBe(201);
        await stream.waitFor((e) => e.event === 'change' && e.data?.clientId === 'pooled-writer');
      } finally {
        stream.close();
      }
    });
  });
});
