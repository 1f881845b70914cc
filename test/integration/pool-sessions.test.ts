/**
 * Ending a pool (libs/persistence pool-sessions.ts) answers once the server has closed the pool's
 * connections, not as soon as pg-pool has asked them to close: the service stops the embedded
 * PostgreSQL right after its pools end (main.ts), and a session still open then is ended by the
 * server, its client reporting "terminating connection due to administrator command"
 * (test/e2e/start-and-stop.test.ts saw it once on a loaded machine). Here the server processes of
 * the pool's sessions are held still (SIGSTOP), as a loaded machine may leave them unscheduled, so
 * the wait is seen every time.
 */
import { readFileSync } from 'node:fs';
import { Client, Pool } from 'pg';
import { closeDataSource, createDataSource, openDataSource } from '@board/persistence';
import { countSessions, endPool } from '../../libs/persistence/src/pool-sessions';
import { serverUrl } from '../support/database';

const NAME = 'pool-sessions-test';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('ending a pool', () => {
  let admin: Client;
  beforeAll(async () => {
    admin = new Client({ connectionString: serverUrl() });
    await admin.connect();
  });
  afterAll(() => admin.end());

  /** The server's processes of the pool's sessions, by pid and client port. */
  async function sessions(): Promise<Array<{ pid: number; port: number }>> {
    const { rows } = await admin.query('SELECT pid, client_port AS port FROM pg_stat_activity WHERE application_name = $1', [NAME]);
    return rows;
  }

  /** A pool of `size` open, idle connections, counted as the service's are. */
  async function openPool(size: number): Promise<Pool> {
    const pool = new Pool({ connectionString: serverUrl(), max: size, application_name: NAME });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    countSessions(pool);
    const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
    for (const client of clients) client.release();
    return pool;
  }

  /**
   * Holds the sessions' server processes still while `work` runs, or answers false when they are
   * not processes of this machine that this test may signal (a server elsewhere, or another
   * user's): a process is held only if it is the postgres backend of that very client port.
   */
  async function holding(pids: Array<{ pid: number; port: number }>, work: () => Promise<void>): Promise<boolean> {
    const ours = pids.every(({ pid, port }) => {
      try {
        process.kill(pid, 0);
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`(${port})`);
      } catch {
        return false;
      }
    });
    if (!ours) return false;
    for (const { pid } of pids) process.kill(pid, 'SIGSTOP');
    try {
      await work();
    } finally {
      for (const { pid } of pids) process.kill(pid, 'SIGCONT');
    }
    return true;
  }

  /** Closes what the test opened and says loudly that nothing was checked. */
  async function skipped(close: () => Promise<void>): Promise<void> {
    await close();
    process.stderr.write(`\n!!! pool-sessions.test: the server's processes are not this machine's to signal; the wait is not checked !!!\n\n`);
  }

  it('answers only once the server has closed every connection, however late its sessions run', async () => {
    const pool = await openPool(2);
    const open = await sessions();
    expect(open).toHaveLength(2);
    let ended: Promise<string> = Promise.resolve('not ended');
    const held = await holding(open, async () => {
      ended = endPool(pool).then(() => 'ended');
      // The sessions have not read their goodbye: their connections are open, and the end waits.
      expect(await Promise.race([ended, sleep(300).then(() => 'waiting')])).toBe('waiting');
      expect(await sessions()).toHaveLength(2);
    });
    if (!held) return skipped(() => endPool(pool));
    expect(await ended).toBe('ended');
    expect(await sessions()).toEqual([]);
  });

  it("closing the requests' data source waits the same way, for the connections TypeORM made while opening too", async () => {
    // Only the connections of the opening: made before anything could count them.
    const dataSource = await openDataSource(createDataSource({ url: serverUrl(), poolSize: 3, applicationName: NAME }), () => undefined);
    const open = await sessions();
    expect(open.length).toBeGreaterThanOrEqual(1);
    let closed: Promise<string> = Promise.resolve('not closed');
    const held = await holding(open, async () => {
      closed = closeDataSource(dataSource).then(() => 'closed');
      expect(await Promise.race([closed, sleep(300).then(() => 'waiting')])).toBe('waiting');
    });
    if (!held) return skipped(() => closeDataSource(dataSource));
    expect(await closed).toBe('closed');
    expect(await sessions()).toEqual([]);
  });

  it('answers after its bound when a session does not close (a server that stopped answering must not hold a stop up)', async () => {
    const pool = await openPool(1);
    const open = await sessions();
    expect(open).toHaveLength(1);
    const held = await holding(open, async () => {
      const began = Date.now();
      await endPool(pool, 200);
      expect(Date.now() - began).toBeGreaterThanOrEqual(190);
      expect(await sessions()).toHaveLength(1);
    });
    if (!held) return skipped(() => endPool(pool));
    // Let go, the session reads its goodbye and closes.
    for (let i = 0; i < 100 && (await sessions()).length > 0; i++) await sleep(20);
    expect(await sessions()).toEqual([]);
  });
});
