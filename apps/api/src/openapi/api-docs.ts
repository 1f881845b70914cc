import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCUMENT_PATH, type OpenApiDocument } from './document';

/** Where the browsable docs live (Swagger UI, its assets served by the service itself). */
export const DOCS_PREFIX = '/api/docs';

/**
 * The docs page's own policy: Swagger UI's script, styles and fonts come from this origin only
 * (no CDN, no validator badge), like the board page (web/web-page.ts). Helmet's `default-src
 * 'none'` stays on every other answer.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // The one inline style Swagger UI's bundle applies (its hash), nothing else inline.
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the document at `GET /api/openapi.json` (public) and the browsable docs at /api/docs. */
export async function registerApiDocs(fastify: FastifyInstance, document: OpenApiDocument): Promise<void> {
  const body = JSON.stringify(document);
  fastify.get(DOCUMENT_PATH, (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
  await fastify.register(swagger, { mode: 'static', specification: { document: document as never } });
  await fastify.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: DOCS_CSP,
    validatorUrl: false,
    uiConfig: { deepLinking: true },
  });
}

const tables = new WeakMap<FastifyInstance, { method: string; url: string }[]>();

/**
 * Records Fastify's route table as routes are added (call before the app registers its routes):
 * the contract test compares it with the document, so a route of the service cannot go undocumented.
 */
export function recordRouteTable(fastify: FastifyInstance): void {
  const table: { method: string; url: string }[] = [];
  tables.set(fastify, table);
  fastify.addHook('onRoute', (route) => {
    for (const method of ([] as string[]).concat(route.method)) table.push({ method, url: route.url });
  });
}

export const routeTableOf = (fastify: FastifyInstance): { method: string; url: string }[] => tables.get(fastify) ?? [];
