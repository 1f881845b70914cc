#!/usr/bin/env node
// npm test's second pass (issue 30): the whole end-to-end suite again, every test app reaching
// PostgreSQL through a real PgBouncer in transaction mode (test/support/pgbouncer.ts), where
// nothing session-bound survives a transaction. Without PgBouncer: one loud line, and no failure.
const { existsSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const bin = process.env.PGBOUNCER_BIN || '/usr/sbin/pgbouncer';
if (!existsSync(bin)) {
  process.stderr.write(`\n!!! POOLER PASS SKIPPED: no PgBouncer at ${bin}; apt-get install -y pgbouncer !!!\n\n`);
  process.exit(0);
}
const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
// Paths given on the command line narrow the pass (`node scripts/test-pooler.js test/e2e/lists.test.ts`).
const paths = process.argv.slice(2);
const args = [jest, '--runInBand', ...(paths.length > 0 ? paths : ['test/e2e'])];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, TEST_POOLER: '1' } });
process.exit(run.status ?? 1);
