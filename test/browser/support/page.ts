import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/test-app';
import type { RouteAnswer } from '../../support/routes';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const pageOpen = require('../../../bench/page-open.js');
/** The page's freshness check and build, shared with `npm run build` (scripts/web-build.js). */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const webBuild: { webBuildFresh(): boolean; buildWeb(options?: { quiet?: boolean }): void } = require('../../../scripts/web-build.js');

export const ROOT = resolve(__dirname, '..', '..', '..');
export const CHROMIUM: string | null = pageOpen.findChromium();

let warned = false;
/** describe, or describe.skip with one loud line when the machine has no Chromium. */
export function describeBrowser(name: string, fn: () => void): void {
  if (!CHROMIUM) {
    if (!warned) {
      warned = true;
      // Straight to stderr: Jest drops the console output of a file whose tests are all skipped.
      process.stderr.write(`\n!!! BROWSER TESTS SKIPPED (${name}): no Chromium found; ${pageOpen.INSTALL_HINT} !!!\n\n`);
    }
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Builds the page (vite) when its build output is missing or older than its sources. Test files
 * running side by side take turns through a lock directory, so one builds and the others wait.
 */
export function ensureWebBuild(): void {
  const fresh = (): boolean => webBuild.webBuildFresh();
  if (fresh()) return;
  const lock = join(ROOT, 'dist', '.web-build.lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is taken over after five minutes.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      sleepSync(500);
    }
  }
  try {
    if (fresh()) return;
    webBuild.buildWeb({ quiet: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface BrowserHarness {
  t: TestApp;
  origin: string;
  newContext(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** An agent of a project speaking with its own token, from a context of its own. */
export interface AgentApi {
  (method: string, path: string, data?: unknown): Promise<{ status: number; body: Record<string, any> }>;
  close(): Promise<void>;
}

/** Adds the agent `name` to a project (as the person of `context`) and answers its API. */
export async function agentIn(h: BrowserHarness, context: BrowserContext, projectId: string, name: string): Promise<AgentApi> {
  const { token } = await apiIn<{ token: string }>(context, h.origin, 'POST', `/projects/${projectId}/agents`, { name });
  const agent = await h.newContext();
  const call = async (method: string, path: string, data?: unknown) => {
    const res = await agent.request.fetch(`${h.origin}/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
    return { status: res.status(), body: await res.json() };
  };
  return Object.assign(call, { close: () => agent.close() });
}

/** A real instance serving the built page, and a fresh Chromium. */
export async function startHarness(env?: Record<string, string>, options: { port?: number } = {}): Promise<BrowserHarness> {
  ensureWebBuild();
  const t = await startTestApp({ env, port: options.port });
  const origin = t.api.replace(/\/api$/, '');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: pageOpen.CHROMIUM_ARGS });
  return {
    t,
    origin,
    async newContext(options = {}) {
      return browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, baseURL: origin });
    },
    async close() {
      await browser.close().catch(() => undefined);
      await t.close();
    },
  };
}

/** Fails the test on a page error or a refused resource (a CSP violation shows as one). */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Registers a person through the API of the context (its cookie jar), no Origin header. */
export async function registerIn(context: BrowserContext, origin: string, name: string): Promise<{ id: string; email: string }> {
  const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await context.request.post(`${origin}/api/auth/register`, { data: { email, name, password: 'correct horse' } });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  return { id: (await res.json()).user.id, email };
}

/**
 * A call through the context's cookie jar; answers the route's successful answer as the API document
 * types it (see test/support/routes.ts), or the type argument's.
 */
export async function apiIn<M extends HttpMethod, P extends string>(context: BrowserContext, origin: string, method: M, path: P, data?: unknown): Promise<RouteAnswer<Lowercase<M>, P>>;
export async function apiIn<T>(context: BrowserContext, origin: string, method: HttpMethod, path: string, data?: unknown): Promise<T>;
export async function apiIn(context: BrowserContext, origin: string, method: HttpMethod, path: string, data?: unknown): Promise<unknown> {
  const res = await context.request.fetch(`${origin}/api${path}`, { method, data });
  const text = await res.text();
  if (res.status() >= 400) throw new Error(`${method} ${path}: ${res.status()} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** What axe-core's run answers, as far as read here. */
interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

const AXE_SOURCE = () => readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** axe-core run in the page; answers serious and critical violations as short lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE());
  const result: AxeResult = await page.evaluate("axe.run(document, { resultTypes: ['violations'] })");
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Saves a PNG of the main screens under docs/screenshots when SCREENSHOTS=1. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  if (!/^(1|true|yes)$/i.test(process.env.SCREENSHOTS ?? '')) return;
  const dir = join(ROOT, 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

export { pageOpen };

/** Retries `read` until `check` passes (or throws its last failure after `ms`). */
export async function until<T>(read: () => Promise<T> | T, check: (value: T) => void, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check(await read());
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
