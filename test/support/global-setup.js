// Picks the PostgreSQL the whole run talks to: TEST_DATABASE_URL when set (e.g. the machine's
// own server), else an embedded one started here, so `npm test` works on a bare machine too.
const { join, resolve } = require('node:path');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
// Jest transforms what global setup requires, so the TypeScript source serves here as it is.
const { startEmbeddedPostgres } = require('../../libs/persistence/src/embedded-postgres.ts');

module.exports = async function globalSetup() {
  // The e2e suites record every answer here; global-teardown.js checks them against the API document.
  if (!process.env.CONTRACT_RECORD_DIR) {
    process.env.CONTRACT_RECORD_DIR = mkdtempSync(join(tmpdir(), 'board-contract-'));
    process.env.CONTRACT_RECORD_OWNED = '1';
  }
  // TEST_REPLICA=1 (npm test's replica pass, scripts/test-replica.js): the run talks to a primary
  // with a real streaming replica, both made here (replica.ts), and every test app reads from the
  // replica too (DATABASE_READ_URL, test-app.ts).
  if (process.env.TEST_REPLICA === '1') {
    const { startReplicaPair } = require('./replica.ts');
    const pair = await startReplicaPair();
    process.env.TEST_DATABASE_URL = pair.primaryUrl;
    process.env.TEST_REPLICA_URL = pair.replicaUrl;
    globalThis.__REPLICA_PAIR__ = pair;
  }
  if (!process.env.TEST_DATABASE_URL) await startEmbedded();
  // TEST_POOLER=1 (npm test's second pass, scripts/test-pooler.js): every test app reaches its
  // database through a real PgBouncer in transaction mode (test-app.ts); direct SQL stays direct.
  if (process.env.TEST_POOLER === '1') {
    const { startPgBouncer } = require('./pgbouncer.ts');
    const bouncer = await startPgBouncer(process.env.TEST_DATABASE_URL);
    process.env.TEST_POOLER_URL = bouncer.url;
    globalThis.__PGBOUNCER__ = bouncer;
  }
};

async function startEmbedded() {
  const databaseDir = resolve(__dirname, '..', '..', '.data', 'test-postgres');
  const port = Number(process.env.TEST_EMBEDDED_PG_PORT || 54339);
  const logs = [];
  // The server process can exit before it is ready (a port or shared memory still held by a
  // server that is just stopping): try a few times, then fail with what it said.
  for (let attempt = 1; ; attempt++) {
    try {
      const pg = await startEmbeddedPostgres(databaseDir, port, (line) => logs.push(line), {
        settings: ['fsync=off', 'max_connections=300'],
        holdUntilStopped: false,
      });
      process.env.TEST_DATABASE_URL = pg.url;
      globalThis.__EMBEDDED_PG__ = pg;
      return;
    } catch (error) {
      if (attempt === 3) throw new Error(`embedded PostgreSQL did not start: ${error ?? ''}\n${logs.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 2000 * attempt));
    }
  }
}

