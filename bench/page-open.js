'use strict';
/**
 * The board page in a real browser (Debian's Chromium driven by playwright-core): where the browser
 * is, how to launch it, and how long a board takes to be usable after opening. Shared by the
 * browser tests (test/browser) and `npm run bench`.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const INSTALL_HINT = 'install it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)';

/** The system's Chromium, or null. Browser builds are never downloaded. */
function findChromium() {
  // CHROMIUM_PATH, when set, is the only place looked at (so a run can also do without one).
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/** A fresh browser with a user-data dir of its own, removed on close. */
async function launchChromium() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium found: ${INSTALL_HINT}`);
  const { chromium } = require('playwright-core');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'board-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const browser = context.browser();
  return {
    context,
    browser,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes `count` live tasks into a project in one statement (ranks in order after any existing
 * ones, a quarter each in no Status and in each Status option), as the bench seeds its boards.
 */
async function seedBoard(sql, projectId, statusId, optionIds, count) {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const { rows } = await sql.query('SELECT task_counter FROM projects WHERE id = $1', [projectId]);
  const base = Number(rows[0].task_counter);
  await sql.query(
    `INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2 + n, 'Seeded task ' || n, '',
            'd' || substr($3, n / 3844 + 1, 1) || substr($3, (n / 62) % 62 + 1, 1) || substr($3, n % 62 + 1, 1),
            CASE WHEN n % 4 = 0 THEN '{}'::jsonb ELSE jsonb_build_object($4::text, ($5::text[])[n % 4]) END,
            now(), now()
       FROM generate_series(1, $6::int) AS n`,
    [projectId, base, digits, statusId, optionIds, count],
  );
  await sql.query('UPDATE projects SET task_counter = task_counter + $2, task_count = task_count + $2 WHERE id = $1', [projectId, count]);
}

/**
 * Opens `/p/<projectId>` with the given session cookie and answers the milliseconds from the
 * start of navigation until the board is usable: the first cards drawn, every column's count
 * shown, and the main thread free again for the next frame.
 */
async function measureBoardOpen(context, origin, sessionId, projectId, expectTasks) {
  if (sessionId) await context.addCookies([{ name: 'service_session', value: sessionId, url: origin }]);
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/p/${projectId}`, { waitUntil: 'commit' });
    await page.waitForSelector('[data-task-key]', { timeout: 30_000 });
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('.column-head .muted')].reduce((s, el) => s + Number(el.textContent), 0) === n,
      expectTasks,
      { timeout: 30_000 },
    );
    return await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0))));
  } finally {
    await page.close();
  }
}

module.exports = { CHROMIUM_ARGS, INSTALL_HINT, findChromium, launchChromium, measureBoardOpen, seedBoard };
