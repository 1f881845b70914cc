import { createRequire } from 'node:module';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** HSTS as decided: a year, this host only (no includeSubDomains: the service does not own its parent domain). */
const HSTS_MAX_AGE = 31_536_000;

/**
 * @fastify/helmet's options (decisions.md › Security › Headers). API answers are JSON, never a
 * document: their Content-Security-Policy is `default-src 'none'; frame-ancestors 'none'`, so
 * a JSON answer opened as a page (a sniffing browser, a mis-set proxy) can load, run and frame
 * nothing. A page served at `/` later sets its own policy on its route (`reply.header` after
 * helmet's onRequest hook, or the route's `helmet` option) allowing `'self'` only. Helmet sets
 * its headers on the raw response, so the SSE stream's `writeHead` carries them too and keeps its
 * own Cache-Control.
 */
export function helmetOptions(production: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: production ? { maxAge: HSTS_MAX_AGE, includeSubDomains: false } : false,
  };
}

/**
 * The decided headers by hand, for the few answers written before Fastify's hooks run (router
 * refusals, header overflow on the raw socket). test/e2e/security-headers.test.ts checks that
 * they match what helmet sets on ordinary answers.
 */
export function refusalHeaders(production: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    ...(production ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE}` } : {}),
  };
}

/** One step of helmet's work on a response: set a header (name as helmet spells it), or remove it (`null`). */
type HeaderStep = readonly [name: string, value: string | number | readonly string[] | null];

/** What a helmet middleware touches on a response. */
interface HeaderSink {
  setHeader(name: string, value: string | number | readonly string[]): void;
  removeHeader(name: string): void;
}
type HelmetFactory = (options: object) => (req: unknown, res: HeaderSink, next: (error?: unknown) => void) => void;

/**
 * What helmet does to every answer under `helmetOptions`, recorded once: the helmet that
 * @fastify/helmet runs, on a recording response. The options hold no function (no per-request
 * nonce), so the steps are the same for every request.
 */
export function securityHeaderSteps(production: boolean): HeaderStep[] {
  const helmet = createRequire(require.resolve('@fastify/helmet'))('helmet') as HelmetFactory;
  const steps: HeaderStep[] = [];
  const recorder: HeaderSink = {
    setHeader: (name, value) => void steps.push([name, value]),
    removeHeader: (name) => void steps.push([name, null]),
  };
  helmet(helmetOptions(production))({}, recorder, (error) => {
    if (error) throw error;
  });
  return steps;
}

/**
 * The onRequest hook that puts helmet's headers on the raw response, as @fastify/helmet did, in
 * its place among the hooks. @fastify/helmet built helmet's middlewares again on every request
 * (parsing the CSP directives each time) in two hooks, one of them async: replaying the recorded
 * steps sets the same headers, in the same order and spelling, for a fraction of the CPU.
 */
export function securityHeadersHook(production: boolean) {
  const steps = securityHeaderSteps(production);
  return function securityHeaders(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const raw = reply.raw;
    for (const [name, value] of steps) {
      if (value === null) raw.removeHeader(name);
      else raw.setHeader(name, value);
    }
    done();
  };
}
