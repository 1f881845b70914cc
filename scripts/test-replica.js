#!/usr/bin/env node
// npm test's replica pass (issue 30): the whole end-to-end suite again against a primary with a
// real streaming replica that the run makes (test/support/replica.ts: initdb, pg_basebackup -R),
// every test app reading from the replica too (DATABASE_READ_URL). Without PostgreSQL's binaries
// (initdb, pg_basebackup, postgres): one loud line, and no failure.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
require('./ts-register.js');
const { postgresBinDir, REPLICA_HINT } = require('../test/support/replica.ts');

if (!postgresBinDir()) {
  process.stderr.write(`\n!!! REPLICA PASS SKIPPED: no PostgreSQL binaries with pg_basebackup; ${REPLICA_HINT} !!!\n\n`);
  process.exit(0);
}
const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
// Paths given on the command line narrow the pass (`node scripts/test-replica.js test/e2e/auth.test.ts`).
const paths = process.argv.slice(2);
const args = [jest, '--runInBand', ...(paths.length > 0 ? paths : ['test/e2e'])];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, TEST_REPLICA: '1' } });
process.exit(run.status ?? 1);
