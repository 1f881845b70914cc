import type { FastifyHelmetOptions } from '@fastify/helmet';

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
