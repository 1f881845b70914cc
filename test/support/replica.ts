import { ChildProcess, execFileSync, spawn, spawnSync, SpawnSyncOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/**
 * A primary and a real streaming replica of it, made by the tests with the machine's PostgreSQL
 * binaries (`initdb`, `pg_basebackup -R`, `postgres`; Debian's postgresql package, found by
 * `pg_config --bindir` or PG_BINDIR). The pair is a cluster of its own rather than a base backup of
 * the test PostgreSQL: that one may refuse replication connections (its pg_hba.conf is the
 * machine's), and its backup would copy every other run's databases; a fresh primary is small, so
 * the backup takes about a second. The embedded PostgreSQL ships no pg_basebackup.
 */
export interface ReplicaPair {
  /** The primary's `postgres` database: swap the path for another. */
  primaryUrl: string;
  /** The replica's `postgres` database (hot standby, read only). */
  replicaUrl: string;
  stop(): Promise<void>;
}

export const REPLICA_HINT = 'apt-get install -y postgresql (initdb, pg_basebackup and postgres), or set PG_BINDIR';

/** Where the binaries are, or null (the replica tests then skip with one loud line). */
export function postgresBinDir(): string | null {
  const candidates = [process.env.PG_BINDIR, pgConfigBinDir()].filter((d): d is string => Boolean(d));
  return candidates.find((dir) => ['initdb', 'pg_basebackup', 'postgres'].every((b) => existsSync(join(dir, b)))) ?? null;
}

function pgConfigBinDir(): string | undefined {
  try {
    return execFileSync('pg_config', ['--bindir'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return undefined;
  }
}

/** Settings both servers start with: fast (nothing here must survive a crash) and room for a suite's pools. */
const COMMON = ['fsync=off', 'full_page_writes=off', 'max_connections=300', 'listen_addresses=127.0.0.1', 'log_min_messages=warning'];

export async function startReplicaPair(binDir = postgresBinDir()): Promise<ReplicaPair> {
  if (!binDir) throw new Error(`no PostgreSQL binaries: ${REPLICA_HINT}`);
  // PostgreSQL refuses to run as root: as root, the servers and their folders are the postgres user's.
  const ids = process.getuid?.() === 0 ? { uid: Number(idOf('-u')), gid: Number(idOf('-g')) } : null;
  const root = mkdtempSync(join(tmpdir(), 'board-replica-'));
  const own = (path: string) => ids && chownSync(path, ids.uid, ids.gid);
  own(root);
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const started: Server[] = [];
  const stopAll = async () => {
    for (const server of started.reverse()) await server.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    run(ids, join(binDir, 'initdb'), ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--encoding=UTF8', '--locale=C', '--no-sync']);
    const primaryPort = await freePort();
    // initdb's pg_hba.conf with trust lets replication connections in from 127.0.0.1.
    started.push(await startServer(ids, binDir, primaryDir, primaryPort, [...COMMON, 'wal_level=replica', 'max_wal_senders=5', `unix_socket_directories=${root}`]));
    run(ids, join(binDir, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
    const replicaPort = await freePort();
    // hot_standby_feedback: a long read on the replica is not cancelled because replay removed rows it still sees.
    started.push(await startServer(ids, binDir, replicaDir, replicaPort, [...COMMON, 'hot_standby=on', 'hot_standby_feedback=on', `unix_socket_directories=${root}`]));
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
      replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function idOf(flag: '-u' | '-g'): string {
  return execFileSync('id', [flag, 'postgres']).toString().trim();
}

type Ids = { uid: number; gid: number } | null;

function run(ids: Ids, binary: string, args: string[]): void {
  const options: SpawnSyncOptions = { ...(ids ?? {}), cwd: '/', env: { LC_ALL: 'C', PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] };
  const result = spawnSync(binary, args, options);
  if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed (${result.status}): ${result.stderr?.toString() ?? ''}`);
}

interface Server {
  stop(): Promise<void>;
}

async function startServer(ids: Ids, binDir: string, dataDir: string, port: number, settings: string[]): Promise<Server> {
  const child: ChildProcess = spawn(join(binDir, 'postgres'), ['-D', dataDir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
    ...(ids ?? {}),
    cwd: '/',
    // A group of its own: a Ctrl-C of the run is not the server's to hear; it stops when asked.
    detached: true,
    env: { LC_ALL: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = () => child.kill('SIGQUIT');
  process.once('exit', kill);
  await new Promise<void>((ready, failed) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('ready to accept')) ready();
    });
    child.once('exit', (code) => failed(new Error(`postgres in ${dataDir} exited with code ${code}: ${said.split('\n').slice(-10).join('\n')}`)));
  });
  // Keep reading its log, or a full pipe would stall the server.
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  return {
    async stop() {
      process.off('exit', kill);
      // Fast shutdown: open connections are cut, nothing is left to wait for.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
