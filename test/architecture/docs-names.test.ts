import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DOCS_PREFIX } from '../../apps/api/src/openapi/api-docs';
import { controllersOf, OUTSIDE_DOCUMENT } from '../../apps/api/src/openapi/routes';
import { apiDocument, apiModule } from '../contract/contract-check';

/** Routes the service serves that the API document leaves out on purpose (`@OutsideDocument`), e.g. /api/mcp. */
function routesOutsideDocument(): string[] {
  const join = (...parts: unknown[]) => `/${parts.map((p) => String(p ?? '').replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
  return controllersOf(apiModule()).flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype)
      .filter((name) => name !== 'constructor' && Reflect.getMetadata(OUTSIDE_DOCUMENT, controller.prototype[name]) !== undefined)
      .map((name) => join('api', Reflect.getMetadata('path', controller), Reflect.getMetadata('path', controller.prototype[name]))),
  );
}

/**
 * The README and docs/ may only name environment variables, routes and npm scripts that exist:
 * a newcomer copies them as they are, so a renamed variable or a removed route must fail here
 * rather than on someone's first start.
 */
const ROOT = join(__dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Variables of other programs that the docs name on purpose (they are not ours to read). */
const FOREIGN_VARIABLES: Record<string, string> = {
  MINIO_API_CORS_ALLOW_ORIGIN: "MinIO's own setting, named where the docs explain CORS for uploads",
  WEBHOOK_SECRET: "the example webhook receiver's own variable (the receiver is the reader's program)",
};

/** Where our code reads its variables and names its constants: everything but prose. */
const SOURCE_DIRS = ['apps', 'libs', 'test', 'bench', 'scripts', '.ci'];
const SOURCE_FILES = ['docker-compose.yml', 'package.json', 'jest.config.js'];

function sourceText(): string {
  const parts: string[] = SOURCE_FILES.map((f) => readFileSync(join(ROOT, f), 'utf8'));
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      // This file plants names that must not exist: it is not a source of names.
      if (name === 'node_modules' || name === 'dist' || name === 'screenshots' || name === 'docs-names.test.ts') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.md') && /\.(ts|tsx|js|cjs|mjs|sh|json|yml)$|^run$/.test(name)) parts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  return parts.join('\n');
}

/** Inline code spans and fenced blocks: where a page names things a reader types. */
function codeOf(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]);
  const inline = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...fenced, ...inline];
}

export interface DocNames {
  variables: string[];
  routes: string[];
  scripts: string[];
}

/** The names a page's code spans use, each kind apart. */
export function namesIn(markdown: string): DocNames {
  const code = codeOf(markdown);
  const variables = new Set<string>();
  const routes = new Set<string>();
  const scripts = new Set<string>();
  for (const span of code) {
    for (const m of span.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) variables.add(m[0]);
    for (const m of span.matchAll(/(?:^|[\s'"(=])(?:[A-Z]+ )?(\/api(?:\/[^\s`'")?,;]*)?)/g)) routes.add(m[1].replace(/[.:]+$/, ''));
    for (const m of span.matchAll(/\bnpm run ([\w:.-]+)/g)) scripts.add(m[1]);
    for (const m of span.matchAll(/\bnpm (start|test)\b/g)) scripts.add(m[1]);
  }
  // Prose names routes without code spans too ("GET /api/health answers …").
  for (const m of markdown.matchAll(/(?:GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s`'")?,;]*)/g)) routes.add(m[1].replace(/[.:]+$/, ''));
  return { variables: [...variables].sort(), routes: [...routes].sort(), scripts: [...scripts].sort() };
}

/** Document paths as patterns: `{x}` stands for one segment; a page's own `{id}` or `*` is one too. */
function routeKnown(route: string, documented: RegExp[]): boolean {
  const path = route.replace(/\*$/, 'x').replace(/\{[^}]*\}|…/g, 'x');
  if (path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`)) return true;
  // `/api/auth/*` names a family: some documented route must start with it.
  if (route.endsWith('/*')) return documented.some((re) => re.source.startsWith(`^${route.slice(0, -2).replace(/\//g, '\\/')}`));
  return documented.some((re) => re.test(path));
}

export function unknownNames(names: DocNames, source: string, scriptNames: string[], documentedPaths: string[]): string[] {
  const documented = documentedPaths.map((p) => new RegExp(`^${p.replace(/\//g, '\\/').replace(/\{[^}]+\}/g, '[^/]+')}$`));
  const words = new Set(source.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []);
  return [
    ...names.variables.filter((v) => !words.has(v) && !(v in FOREIGN_VARIABLES)).map((v) => `variable ${v}`),
    ...names.routes.filter((r) => r !== '/api' && !routeKnown(r, documented)).map((r) => `route ${r}`),
    ...names.scripts.filter((s) => !scriptNames.includes(s)).map((s) => `npm script ${s}`),
  ];
}

describe('the README and docs/ name only what exists', () => {
  const source = sourceText();
  const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts);
  const paths = [...Object.keys(apiDocument().paths), ...routesOutsideDocument()];

  it.each(PAGES)('%s', (page) => {
    const names = namesIn(readFileSync(join(ROOT, page), 'utf8'));
    expect(unknownNames(names, source, scripts, paths)).toEqual([]);
  });

  it('reads every page of docs/ and the README, and the README stays a newcomer’s page', () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(5);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(150);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    // Every page the README links to exists.
    const links = [...readme.matchAll(/\]\(((?:docs|bench)\/[^)#]+)\)/g)].map((m) => m[1]);
    expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
    expect(relative(ROOT, join(ROOT, 'docs'))).toBe('docs');
  });

  it('catches a variable, a route and a script that do not exist (planted)', () => {
    const planted = [
      'Set `SERVICE_NO_SUCH_SETTING=1`, then `npm run no-such-script` and call `GET /api/no/such/route`.',
      'Known ones pass: `DATABASE_URL`, `npm test`, `GET /api/projects/{id}/board`, `/api/auth/*`, `/api/docs`.',
    ].join('\n');
    expect(unknownNames(namesIn(planted), source, scripts, paths)).toEqual([
      'variable SERVICE_NO_SUCH_SETTING',
      'route /api/no/such/route',
      'npm script no-such-script',
    ]);
  });
});
