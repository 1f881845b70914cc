import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DOCS_CSP, DOCS_PREFIX, routeTableOf } from '../../apps/api/src/openapi/api-docs';
import { FALLBACK_BODIES } from '../../apps/api/src/openapi/request-bodies';
import { documentedRoutes, routesWithoutAnswer, routesWithoutSummary } from '../../apps/api/src/openapi/document';
import { controllersOf } from '../../apps/api/src/openapi/routes';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, startTestApp, type TestApp } from '../support/test-app';
import { apiDocument, apiModule } from './contract-check';

/**
 * Routes of Fastify's table that the API document leaves out on purpose, with the reason. Every
 * other route of the service must be documented (method and path).
 */
const NOT_IN_DOCUMENT: { pattern: RegExp; reason: string }[] = [
  { pattern: /^\/api\/docs(\/.*)?$/, reason: 'the browsable docs page and its assets (Swagger UI), not part of the API' },
  { pattern: /^(?!\/api(\/|$))/, reason: 'outside /api: the board page at / and its files (apps/web)' },
  { pattern: /^\/api\/mcp$/, reason: 'MCP over HTTP: JSON-RPC messages of the Model Context Protocol (answered as JSON or an event stream), described by its specification' },
];

describe('the API document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is served at GET /api/openapi.json without a credential, as built from the code', async () => {
    const res = await new Client(t.api).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(apiDocument())));
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('documents every route of the service (Fastify route table), and nothing the service lacks', () => {
    const documented = new Set(
      Object.entries(apiDocument().paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`)),
    );
    const table = routeTableOf(t.app.getHttpAdapter().getInstance());
    expect(table.length).toBeGreaterThan(100);
    const served = new Set<string>();
    const missing: string[] = [];
    for (const { method, url } of table) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      if (NOT_IN_DOCUMENT.some((e) => e.pattern.test(url))) continue;
      served.add(`${method} ${url}`);
      if (!documented.has(`${method} ${url}`)) missing.push(`${method} ${url}`);
    }
    expect(missing).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it('describes the answer of every route (apps/api/src/openapi/answers.ts)', () => {
    expect(routesWithoutAnswer(apiModule())).toEqual([]);
  });

  it('sums up every route in words (apps/api/src/openapi/summaries.ts), never by its method and path', () => {
    expect(routesWithoutSummary(apiModule())).toEqual([]);
    for (const [path, item] of Object.entries(apiDocument().paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(`${method} ${path}: ${String(operation.summary)}`).not.toMatch(/: (GET|POST|PUT|PATCH|DELETE) \/api/);
        expect(`${method} ${path}: ${String(operation.description)}`).not.toMatch(/interface\.md|decisions\.md|Checked by the rule/);
      }
    }
    expect(JSON.stringify(apiDocument())).not.toMatch(/interface\.md|decisions\.md/);
  });

  it('is well formed: every schema compiles (JSON Schema 2020-12), every operation has an id, security and its error answers', () => {
    const document = apiDocument();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(document as object, 'api');
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(op.security).toBeDefined();
        expect(Object.keys(op.responses)).toContain('500');
        for (const [status, response] of Object.entries(op.responses)) {
          const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}`;
          const media = Object.keys(response.content ?? {})[0];
          if (media === 'application/json') expect(() => ajv.compile({ $ref: `api#${pointer}/content/application~1json/schema` })).not.toThrow();
        }
      }
    }
  });

  it('describes the gates as security requirements and names their 403 sentence', () => {
    const paths = apiDocument().paths;
    expect(paths['/api/version'].get.security).toEqual([]);
    expect(paths['/api/projects/{projectId}/board'].get.security).toEqual([{ session: [] }, { agentToken: [] }]);
    expect(paths['/api/tasks/{taskId}/run'].post.security).toEqual([{ agentToken: [] }]);
    expect(paths['/api/options/{optionId}'].delete.description).toContain('Only the owner or an admin can delete options.');
    expect(Object.keys(paths['/api/options/{optionId}'].delete.responses)).toEqual(expect.arrayContaining(['401', '403', '404']));
    expect(paths['/api/tasks/{taskId}'].patch.responses['409']).toMatchObject({ content: { 'application/json': { schema: { anyOf: expect.any(Array) } } } });
  });

  it('reads request bodies from the DTO classes: a DTO route carries its fields, rules and order', () => {
    const body = apiDocument().paths['/api/tasks/{taskId}/checklist'].post.requestBody as { content: Record<string, { schema: Record<string, unknown> }> };
    expect(body.content['application/json'].schema).toEqual({
      type: 'object',
      title: 'AddChecklistItemBody',
      properties: { text: { type: 'string', maxLength: 400 } },
      required: ['text'],
    });
    const query = apiDocument().paths['/api/tasks/{taskId}/runs'].get.parameters as { name: string; in: string; required: boolean }[];
    expect(query).toContainEqual(expect.objectContaining({ name: 'before', in: 'query', required: true }));
  });

  it('keeps a fallback body only for routes that have no DTO yet', () => {
    const routes = documentedRoutes(controllersOf(apiModule()));
    // A route whose DTO documents its body keeps no fallback beside it (one description per body).
    const shadowed = routes.filter((r) => r.body && `${r.method.toUpperCase()} ${r.path}` in FALLBACK_BODIES).map((r) => `${r.method} ${r.path}`);
    const unknown = Object.keys(FALLBACK_BODIES).filter((key) => !routes.some((r) => `${r.method.toUpperCase()} ${r.path}` === key));
    expect(unknown).toEqual([]);
    expect(shadowed).toEqual([]);
  });

  it('serves browsable docs at /api/docs with assets of its own origin under its own CSP', async () => {
    for (const address of [`${t.api}/docs`, `${t.api}/docs/`]) {
      const page = await fetch(address);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => !u.startsWith('#'));
      expect(assets.length).toBeGreaterThan(2);
      for (const asset of assets) {
        expect(asset).not.toMatch(/^(https?:)?\/\//);
        const res = await fetch(new URL(asset, address));
        await res.arrayBuffer();
        expect([asset, res.status]).toEqual([asset, 200]);
      }
    }
    const json = await fetch(`${t.api}/docs/json`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect(DOCS_PREFIX).toBe('/api/docs');
  });

  it('has its generated client types committed and fresh (npm run client:types)', () => {
    // openapi-typescript runs in a Node process of its own (its dependencies are ES modules).
    const root = join(__dirname, '..', '..');
    const run = spawnSync(process.execPath, ['-r', join(root, 'scripts/ts-register.js'), join(root, 'scripts/client-types.ts'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
