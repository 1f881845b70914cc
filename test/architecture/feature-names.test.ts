import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One name per feature (issue #25, point 6): a feature's folder has the same name in every layer —
 * apps/api/src/<feature>, libs/persistence/src/<feature> and, when it has rules of its own,
 * libs/<feature> — so a reader who knows where one part lives knows where the others are. (Once:
 * `comments`/`checklist` in the app were `discussion` in persistence; the ship service sat in the
 * app's `properties` beside libs/shipping.) A folder that has no twin says why below.
 */
const ROOT = join(__dirname, '..', '..');

/** Persistence folders with no app feature of that name. */
export const PERSISTENCE_ONLY: Record<string, string> = {
  activity: "the unit of work's adapter: every feature's writes land their feed lines, outbox rows and notices through it",
  migrations: 'the schema over time, for every feature',
};

/** App folders with no persistence folder: they keep no rows of their own. */
export const APP_ONLY: Record<string, string> = {
  config: "the app's configuration, read from the environment",
  http: 'HTTP conventions every route shares: bodies, the error catalog and filter, DTO pipe, limits',
  mail: 'sends mail; what it sends is stored by the feature that asks (invites, resets)',
  mcp: 'the MCP endpoint: tools over the other features’ services',
  openapi: 'the API document, generated from the controllers and DTOs',
  web: 'serves the built board page',
};

/** Domain libs with no app feature of that name. */
export const DOMAIN_ONLY: Record<string, string> = {
  filters: 'filter and sort rules, read by views and the work queue (libs/persistence compiles their plan to SQL)',
  kernel: 'what every lib shares: errors, ids, text, the unit of work',
};

/** Libs that are no feature: adapters and the API client. */
const NOT_FEATURES = new Set(['persistence', 'platform', 'client']);

const folders = (dir: string): string[] => readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());

export interface Layers {
  app: readonly string[];
  persistence: readonly string[];
  domain: readonly string[];
}

/** Folders without a twin of the same name that no allow-list explains, and allow-list entries with nothing to explain. */
export function drift(layers: Layers): string[] {
  const app = new Set(layers.app);
  const persistence = new Set(layers.persistence);
  const found: string[] = [];
  for (const name of layers.persistence) if (!app.has(name) && !(name in PERSISTENCE_ONLY)) found.push(`libs/persistence/src/${name}: no apps/api/src/${name}`);
  for (const name of layers.app) if (!persistence.has(name) && !(name in APP_ONLY)) found.push(`apps/api/src/${name}: no libs/persistence/src/${name}`);
  for (const name of layers.domain) if (!app.has(name) && !(name in DOMAIN_ONLY)) found.push(`libs/${name}: no apps/api/src/${name}`);
  for (const name of Object.keys(PERSISTENCE_ONLY)) if (!persistence.has(name) || app.has(name)) found.push(`PERSISTENCE_ONLY.${name} is stale`);
  for (const name of Object.keys(APP_ONLY)) if (!app.has(name) || persistence.has(name)) found.push(`APP_ONLY.${name} is stale`);
  for (const name of Object.keys(DOMAIN_ONLY)) if (!layers.domain.includes(name) || app.has(name)) found.push(`DOMAIN_ONLY.${name} is stale`);
  return found;
}

/** A feature's Nest module is named for its folder: `<feature>/<feature>.module.ts`. */
export function misnamedModules(feature: string, files: readonly string[]): string[] {
  return files.filter((f) => f.endsWith('.module.ts') && f !== `${feature}.module.ts`).map((f) => `${feature}/${f}`);
}

const layers: Layers = {
  app: folders(join(ROOT, 'apps', 'api', 'src')),
  persistence: folders(join(ROOT, 'libs', 'persistence', 'src')),
  domain: folders(join(ROOT, 'libs')).filter((lib) => !NOT_FEATURES.has(lib) && existsSync(join(ROOT, 'libs', lib, 'src'))),
};

describe('one name per feature in every layer', () => {
  it('reads the three layers', () => {
    expect(layers.app).toEqual(expect.arrayContaining(['tasks', 'comments', 'checklist', 'shipping']));
    expect(layers.persistence).toEqual(expect.arrayContaining(['tasks', 'comments', 'checklist', 'shipping']));
    expect(layers.domain).toEqual(expect.arrayContaining(['tasks', 'shipping', 'filters']));
  });

  it('every folder has its twins, or says why not', () => {
    expect(drift(layers)).toEqual([]);
  });

  it.each(layers.app)('apps/api/src/%s names its module for the feature', (feature) => {
    expect(misnamedModules(feature, readdirSync(join(ROOT, 'apps', 'api', 'src', feature)))).toEqual([]);
  });

  describe('planted breaches', () => {
    it('the old layout: discussion in persistence, the ship service in properties, queue and usage reads under runs', () => {
      const old: Layers = {
        app: layers.app.filter((f) => f !== 'shipping'),
        persistence: [...layers.persistence.filter((f) => !['comments', 'checklist', 'shipping', 'queue', 'usage'].includes(f)), 'discussion'],
        domain: layers.domain,
      };
      expect(drift(old)).toEqual(
        expect.arrayContaining([
          'libs/persistence/src/discussion: no apps/api/src/discussion',
          'apps/api/src/comments: no libs/persistence/src/comments',
          'apps/api/src/checklist: no libs/persistence/src/checklist',
          'apps/api/src/queue: no libs/persistence/src/queue',
          'apps/api/src/usage: no libs/persistence/src/usage',
          'libs/shipping: no apps/api/src/shipping',
        ]),
      );
    });

    it('a stale exception', () => {
      expect(drift({ ...layers, persistence: [...layers.persistence, 'config'] })).toEqual(['APP_ONLY.config is stale']);
    });

    it('a module named for another feature', () => {
      expect(misnamedModules('properties', ['properties.module.ts', 'ship.module.ts', 'ship.service.ts'])).toEqual(['properties/ship.module.ts']);
    });
  });
});
