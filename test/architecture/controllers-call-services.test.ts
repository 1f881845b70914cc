import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Controllers call services only (issue "One write protocol", point 6): what a route does lives in
 * an application service that a unit spec can reach, never in a read model or a repository called
 * from the HTTP layer. A controller's constructor may take `…Service` classes, and the app's
 * configuration (`AppConfig`), nothing else.
 */
const ROOT = join(__dirname, '..', '..');
const APP = join(ROOT, 'apps', 'api', 'src');
const ALLOWED = /^(?:[A-Z][A-Za-z]*Service|AppConfig)$/;

function controllers(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return controllers(path);
    return name.endsWith('.controller.ts') ? [path] : [];
  });
}

/** The types a controller's constructor takes, as written (`private readonly x: Type`). */
export function injectedTypes(source: string): string[] {
  const ctor = /constructor\s*\(([\s\S]*?)\)\s*\{/.exec(source);
  if (!ctor) return [];
  return [...ctor[1].matchAll(/:\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

describe('controllers call services only', () => {
  const files = controllers(APP);

  it('finds the controllers', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s', (_name, file) => {
    expect(injectedTypes(readFileSync(file, 'utf8')).filter((type) => !ALLOWED.test(type))).toEqual([]);
  });

  it('catches a read model injected into a controller (planted)', () => {
    const planted = `export class PlantedController {\n  constructor(\n    private readonly tasks: TasksService,\n    private readonly feed: ActivityFeedQuery,\n  ) {}\n}`;
    expect(injectedTypes(planted).filter((type) => !ALLOWED.test(type))).toEqual(['ActivityFeedQuery']);
  });
});
