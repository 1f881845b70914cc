import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app';
import { CHROMIUM, describeBrowser, pageOpen } from './support/page';

/** The browsable API docs (Swagger UI at /api/docs) draw every operation under their own CSP. */
describeBrowser('the API docs page', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestApp();
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: pageOpen.CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('draws every operation of the document, with no CSP violation and no script error', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${t.api}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const document = (await (await fetch(`${t.api}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(await page.locator('.opblock').count()).toBe(operations);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
