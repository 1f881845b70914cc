// After the run: the answers the e2e suites recorded are checked against the API document
// (test/contract/contract-check.ts, in a Node process of its own); a mismatch fails the run with
// route, status and schema error. After a whole run, a documented route nobody called fails too.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

function contractCheck(globalConfig) {
  const dir = process.env.CONTRACT_RECORD_DIR;
  if (!dir) return;
  const whole = !globalConfig.testPathPattern && !globalConfig.testNamePattern && !globalConfig.onlyChanged && !globalConfig.findRelatedTests;
  const root = join(__dirname, '..', '..');
  const check = spawnSync(
    process.execPath,
    ['-r', join(root, 'scripts', 'ts-register.js'), join(root, 'test', 'contract', 'contract-check.ts'), dir, whole ? 'whole' : 'part'],
    { encoding: 'utf8', env: process.env },
  );
  if (check.status !== 0) throw new Error(check.stderr || `contract check ended with ${check.status}`);
  process.stdout.write(`\n${check.stdout}`);
}

module.exports = async function globalTeardown(globalConfig) {
  try {
    contractCheck(globalConfig);
  } finally {
    const bouncer = globalThis.__PGBOUNCER__;
    if (bouncer) await bouncer.stop();
    const pair = globalThis.__REPLICA_PAIR__;
    if (pair) await pair.stop();
    const pg = globalThis.__EMBEDDED_PG__;
    if (pg) await pg.stop();
  }
};
