import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { freePort } from './free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's PgBouncer (`apt-get install -y pgbouncer`), the pooler the tests put in front of PostgreSQL. */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN || '/usr/sbin/pgbouncer';
export const PGBOUNCER_HINT = 'apt-get install -y pgbouncer';

export function pgbouncerPresent(): boolean {
  return existsSync(PGBOUNCER_BIN);
}

export interface RunningPgBouncer {
  /** The pooler's address for the server's `postgres` database: swap the path for another. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a real PgBouncer in transaction mode in front of the server `serverUrl` names, with a
 * wildcard entry so every database of the server (the tests make one per file) is reachable
 * through it. Transaction mode is the hard case: a server connection changes hands at every
 * transaction's end, so nothing session-bound (named prepared statements, LISTEN, SET, session
 * locks) may be relied on.
 */
export async function startPgBouncer(serverUrl: string): Promise<RunningPgBouncer> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(join(tmpdir(), 'board-pgbouncer-'));
  // PgBouncer refuses to run as root; as root it is started as `nobody`, who must read and write here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password || '');
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  writeFileSync(join(dir, 'users.txt'), `${quote(user)} ${quote(password)}\n`, { mode: 0o644 });
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    // One test file at a time, a few apps each with pools of 5 + 2: never a wait in the pooler.
    'default_pool_size = 40',
    'max_client_conn = 4000',
    // Databases are made and dropped per test file: forget an unused one soon.
    'autodb_idle_timeout = 30',
    'server_login_retry = 1',
    // A client waits for a server connection at most this long (default 120 s): a database that is
    // gone must surface as an error within seconds, as it does without a pooler.
    'query_wait_timeout = 5',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', join(dir, 'pgbouncer.ini')] : [join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(PGBOUNCER_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForPort(port, 10_000, () => child.exitCode !== null);
  } catch (error) {
    child.kill('SIGKILL');
    const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${stderr}\n${log.split('\n').slice(-20).join('\n')}`);
  }
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) {
        // SIGTERM: PgBouncer's immediate shutdown (SIGINT would wait for its clients to leave).
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
        clearTimeout(timer);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, timeoutMs: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone()) throw new Error('the process exited');
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
