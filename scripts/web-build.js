// Builds the board page (apps/web, with vite, into dist/web) only when it is missing or older than
// its sources: `npm start` runs `npm run build`, and a start with nothing changed must not spend
// twenty seconds on a build it already has. `--force` builds anyway (`npm run build:web` does).
// The browser tests (test/browser/support/page.ts) use the same freshness check.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const WEB = join(ROOT, 'apps', 'web');
const WEB_OUT = join(ROOT, 'dist', 'web', 'index.html');

function newestIn(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestIn(join(path, entry)));
  return newest;
}

/** The page's sources: its own folder, and the view order of libs/views that it bundles (one rule with the service's). */
const SOURCES = [join(WEB, 'src'), join(WEB, 'index.html'), join(WEB, 'vite.config.ts'), join(ROOT, 'libs', 'views', 'src', 'view-order.ts')];

/** True when dist/web holds a build at least as new as every source of the page. */
function webBuildFresh() {
  if (!existsSync(WEB_OUT)) return false;
  const sources = Math.max(...SOURCES.filter((p) => existsSync(p)).map(newestIn));
  return statSync(WEB_OUT).mtimeMs >= sources;
}

function buildWeb(options = {}) {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(WEB, 'vite.config.ts'), ...(options.quiet ? ['--logLevel', 'warn'] : [])], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

module.exports = { webBuildFresh, buildWeb, WEB_OUT };

if (require.main === module) {
  if (!process.argv.includes('--force') && webBuildFresh()) {
    process.stdout.write('The page (dist/web) is up to date with apps/web: not rebuilt.\n');
  } else {
    buildWeb();
  }
}
