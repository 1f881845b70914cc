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
    const spec = (await (await fetch(`${t.api}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(spec.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    // Swagger UI keeps only the operations near the view in the page once a document is this large,
    // so walk down the page and collect every operation block drawn on the way.
    const drawn = new Set<string>();
    const collect = async () => {
      for (const id of await page.evaluate<string[]>("Array.from(document.querySelectorAll('.opblock'), (e) => e.id)")) drawn.add(id);
    };
    for (let y = 0; ; y += 1000) {
      await collect();
      const bottom = await page.evaluate<boolean>(`(window.scrollTo(0, ${y}), window.innerHeight + window.scrollY >= document.body.scrollHeight - 2)`);
      await page.waitForTimeout(50);
      if (bottom) {
        await collect();
        break;
      }
    }
    expect(drawn.size).toBe(operations);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('heads the page with the service, not a warning, and sums up each operation in words', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.api}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    // Swagger UI draws its warnings and errors (a jsonSchemaDialect it does not know, a document it
    // cannot read) in red boxes of these classes.
    expect(await page.locator('.errors-wrapper, .error-wrapper').allInnerTexts()).toEqual([]);
    expect(await page.locator('.info .title').innerText()).toContain('Task board service');
    expect(await page.locator('.info').innerText()).not.toMatch(/interface\.md|decisions\.md/);
    const summaries = await page.locator('.opblock-summary-description').allInnerTexts();
    expect(summaries.length).toBe(await page.locator('.opblock').count());
    const bare = summaries.filter((summary) => summary.trim() === '' || /^(GET|POST|PUT|PATCH|DELETE) \//.test(summary.trim()));
    expect(bare).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows a real example body for a move: values by property id, not "string"', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.api}/docs#/Tasks/Tasks_move`);
    const move = page.locator('#operations-Tasks-Tasks_move');
    await move.waitFor({ timeout: 30_000 });
    if (!(await move.locator('.opblock-body').count())) await move.locator('.opblock-summary').click();
    const example = (await move.locator('.body-param__example, .microlight').first().innerText()).replace(/\s+/g, ' ');
    expect(example).toContain('"values": { "6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b": "0b9e7d6c-5a4b-4c3d-8e2f-1a0b9c8d7e6f" }');
    expect(example).not.toContain('"values": "string"');
    expect(await move.innerText()).not.toMatch(/interface\.md|Checked by the rule/);
    await page.close();
  }, 60_000);
});
