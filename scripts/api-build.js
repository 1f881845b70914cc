// Compiles the service (tsc, incremental: dist/.tsbuildinfo) only when a source changed since the
// last good build: `npm start` runs `npm run build`, and a start with nothing changed must not
// spend its time in the compiler (even an incremental tsc reads every file and its types).
// `--force` compiles anyway. A stamp is written after a build that succeeded.
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const STAMP = join(ROOT, 'dist', '.api-built');
const MAIN = join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');

/** The newest modification under `path`, skipping the page (built by web-build.js) and dependencies. */
function newestIn(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || path === join(ROOT, 'apps') && entry === 'web') continue;
    newest = Math.max(newest, newestIn(join(path, entry)));
  }
  return newest;
}

const SOURCES = ['apps', 'libs', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((p) => join(ROOT, p));

function apiBuildFresh() {
  if (!existsSync(STAMP) || !existsSync(MAIN)) return false;
  return statSync(STAMP).mtimeMs >= Math.max(...SOURCES.filter((p) => existsSync(p)).map(newestIn));
}

if (!process.argv.includes('--force') && apiBuildFresh()) {
  process.stdout.write('The service (dist/apps, dist/libs) is up to date with its sources: not recompiled.\n');
} else {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
