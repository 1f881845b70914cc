import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type S3rver from '@20minutes/s3rver';
import type { Browser, BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiIn, CHROMIUM, describeBrowser, ensureWebBuild, keepScreenshot, pageOpen, registerIn, seriousViolations, until, watchPage } from './support/page';

/*
 * Page flows over routes built in other branches (files, shipping and the changelog, a person's
 * lists and charts). They fail until those branches are merged with this one.
 */
jest.setTimeout(120_000);

const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/** A 2×2 PNG, so the service can read its size. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 0]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

describeBrowser('board page over the merged routes (files, ship, lists, charts)', () => {
  let t: TestApp;
  let origin: string;
  let s3: S3rver | undefined;
  let s3dir: string;
  let bucketOrigin: string;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    s3dir = mkdtempSync(join(tmpdir(), 'board-s3-'));
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const S3rverClass: typeof S3rver = require('@20minutes/s3rver');
    s3 = new S3rverClass({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'board-files', configs: [Buffer.from(CORS)] }] });
    const { port } = await s3.run();
    bucketOrigin = `http://127.0.0.1:${port}`;
    t = await startTestApp({
      env: {
        S3_BUCKET: 'board-files', S3_REGION: 'us-east-1', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
    origin = t.api.replace(/\/api$/, '');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: pageOpen.CHROMIUM_ARGS });
  }, 300_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    await s3?.close().catch(() => undefined);
    if (s3dir) rmSync(s3dir, { recursive: true, force: true });
  });

  async function person(name: string) {
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: origin });
    const user = await registerIn(context, origin, name);
    const page = await context.newPage();
    return { context, page, user, problems: watchPage(page) };
  }

  it('uploads a file straight to the bucket and shows the image in place', async () => {
    const { context, page, problems } = await person('Fay');
    const { project } = await apiIn(context, origin, 'POST', '/projects', { name: 'Files', key: 'FIL' });
    const { task } = await apiIn(context, origin, 'POST', `/projects/${project.id}/tasks`, { title: 'With a picture' });
    const puts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PUT') puts.push(new URL(r.url()).origin); });
    await page.goto(`/p/${project.id}?task=${task.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Attach a file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png() });
    const img = dialog.getByRole('img', { name: 'dot.png' });
    await img.waitFor();
    await until(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), (w) => expect(w).toBe(2));
    // The bytes went to the bucket, not through the service.
    expect(puts).toEqual([bucketOrigin]);
    const { attachments } = await apiIn(context, origin, 'GET', `/tasks/${task.id}/attachments`);
    expect(attachments.map((a) => [a.name, a.mime, a.width, a.height])).toEqual([['dot.png', 'image/png', 2, 2]]);
    await keepScreenshot(page, 'files');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('ships a release and reads the changelog', async () => {
    const { context, page, problems } = await person('Rae');
    const { project } = await apiIn(context, origin, 'POST', '/projects', { name: 'Ship it', key: 'SHP' });
    await apiIn(context, origin, 'PATCH', `/projects/${project.id}`, { releases: true });
    const board = await apiIn(context, origin, 'GET', `/projects/${project.id}/board`);
    const release = board.properties.find((p) => p.name === 'Release')!;
    const status = board.properties.find((p) => p.name === 'Status')!;
    const done = status.options.find((o) => o.name === 'Done')!.id;
    const { option } = await apiIn(context, origin, 'POST', `/properties/${release.id}/options`, { name: 'v1.0', targetOn: '2026-12-01' });
    await apiIn(context, origin, 'POST', `/properties/${release.id}/options`, { name: 'v1.1', targetOn: '2027-01-01' });
    await apiIn(context, origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Finished work', values: { [release.id]: option.id, [status.id]: done } });
    await apiIn(context, origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Not yet', values: { [release.id]: option.id } });
    await page.goto(`/p/${project.id}/changelog`);
    await page.getByLabel('What ships').selectOption({ label: 'Release: v1.0 (target 2026-12-01)' });
    await page.getByRole('button', { name: 'Ship' }).click();
    await page.getByRole('status').filter({ hasText: '1 archived, 1 moved' }).waitFor();
    await page.getByRole('heading', { name: /Release: v1.0/ }).waitFor();
    await page.getByText('Finished work').waitFor();
    const { changelog } = await apiIn(context, origin, 'GET', `/projects/${project.id}/changelog`);
    expect(changelog.map((c) => [c.name, c.tasks.map((x) => x.title)])).toEqual([['v1.0', ['Finished work']]]);
    await keepScreenshot(page, 'changelog');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps a list of tasks across projects and draws a chart as SVG', async () => {
    const { context, page, problems } = await person('Lou');
    const { project } = await apiIn(context, origin, 'POST', '/projects', { name: 'Lists', key: 'LST' });
    const { task } = await apiIn(context, origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Remember me' });
    await page.goto('/lists');
    await page.getByLabel('New list').fill('This week');
    await page.getByRole('button', { name: 'Make list' }).click();
    await page.getByRole('heading', { name: 'This week' }).waitFor();
    await page.goto(`/p/${project.id}?task=${task.id}`);
    await page.getByRole('dialog').getByLabel('Add to list').selectOption({ label: 'This week' });
    await page.getByText('Added to This week.').waitFor();
    await page.goto('/lists');
    await page.getByRole('link', { name: /This week/ }).click();
    await page.getByRole('link', { name: 'LST-1 Remember me' }).waitFor();
    const { lists } = await apiIn(context, origin, 'GET', '/lists');
    expect(lists.map((l) => [l.name, l.count])).toEqual([['This week', 1]]);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/charts');
    await page.getByLabel('Chart name').fill('Progress');
    await page.getByLabel('Kind').selectOption('burnup');
    await page.getByRole('button', { name: 'Make chart' }).click();
    const svg = page.locator('svg[role="img"]');
    await svg.waitFor();
    expect(await svg.getAttribute('aria-label')).toMatch(/^Progress from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: total 1, done 0$/i);
    await keepScreenshot(page, 'charts');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
