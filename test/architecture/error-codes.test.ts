import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ERROR_CATALOG } from '../../apps/api/src/http/error-catalog';

/**
 * Errors beside their rules (issue #25, point 6): the kernel lists only the generic codes; each lib
 * lists the codes its rules raise in its own `*.errors.ts` (an app feature with no domain lib, such
 * as the feed or search, in `apps/api/src/<feature>/<feature>.errors.ts`), and the one catalog maps
 * every code of every list, exhaustively. The type system checks the catalog too (its type is
 * `{ [C in ErrorCode]: Entry }` over the merged `ErrorCodes`); this test also catches a list the
 * program forgot, a code listed twice, and a lib raising a code that is not its own.
 */
const ROOT = join(__dirname, '..', '..');
const LIBS = join(ROOT, 'libs');
const APP = join(ROOT, 'apps', 'api', 'src');
/** Adapters and the client: they raise or read the codes of the libs whose ports they serve. */
const NOT_DOMAIN = new Set(['persistence', 'platform', 'client']);

/**
 * Codes a lib raises that belong to a lib it does not import, and why that is right.
 * `lib: code` → reason.
 */
const FOREIGN_RAISES_ALLOWED: Record<string, string> = {
  'charts: property.not_found':
    "a chart's flow property missing from its projects answers with the properties' own sentence; charts reads no property rule, so it does not import @board/properties",
};

type Lists = Record<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The exported `…_ERROR_CODES` lists of one module. */
function listsOf(file: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as Record<string, unknown>;
  return Object.entries(mod)
    .filter(([name, value]) => name.endsWith('_ERROR_CODES') && Array.isArray(value))
    .flatMap(([, value]) => value as string[]);
}

/** Every codes list in the repository, by owner (`kernel`, a lib's name, or `app/<feature>`). */
function discoverLists(): Lists {
  const lists: Lists = { kernel: listsOf(join(LIBS, 'kernel', 'src', 'domain-error.ts')) };
  for (const lib of readdirSync(LIBS)) {
    const src = join(LIBS, lib, 'src');
    if (!existsSync(src)) continue;
    const files = readdirSync(src).filter((f) => f.endsWith('.errors.ts'));
    if (files.length) lists[lib] = files.flatMap((f) => listsOf(join(src, f)));
  }
  for (const feature of readdirSync(APP)) {
    const dir = join(APP, feature);
    if (!statSync(dir).isDirectory()) continue;
    const files = readdirSync(dir).filter((f) => f.endsWith('.errors.ts'));
    if (files.length) lists[`app/${feature}`] = files.flatMap((f) => listsOf(join(dir, f)));
  }
  return lists;
}

/** Codes of the lists the catalog lacks, and catalog entries no list declares. */
export function catalogGaps(lists: Lists, catalogCodes: readonly string[]): { missing: string[]; extra: string[] } {
  const listed = new Set(Object.values(lists).flat());
  const mapped = new Set(catalogCodes);
  return { missing: [...listed].filter((c) => !mapped.has(c)), extra: [...mapped].filter((c) => !listed.has(c)) };
}

/** Codes that more than one list (or one list twice) declares, with their owners. */
export function listedTwice(lists: Lists): string[] {
  const owners = new Map<string, string[]>();
  for (const [owner, codes] of Object.entries(lists)) for (const c of codes) owners.set(c, [...(owners.get(c) ?? []), owner]);
  return [...owners].filter(([, o]) => o.length > 1).map(([c, o]) => `${c}: ${o.join(', ')}`);
}

/**
 * Codes written in a domain lib's source that are neither its own, nor the kernel's, nor those of a
 * lib it imports (`@board/<lib>`): a rule raising another lib's code belongs in that lib.
 */
export function foreignRaises(lib: string, sources: readonly string[], lists: Lists): string[] {
  const reach = new Set(['kernel', lib]);
  for (const source of sources) for (const m of source.matchAll(/from '@board\/([a-z-]+)'/g)) reach.add(m[1]);
  const allowed = new Set([...reach].flatMap((owner) => lists[owner] ?? []));
  const known = new Set(Object.values(lists).flat());
  const written = new Set(sources.flatMap((s) => [...s.matchAll(/'([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1])));
  return [...written].filter((c) => known.has(c) && !allowed.has(c)).map((c) => `${lib}: ${c}`);
}

/** Domain libs whose rules raise something (`fail(…)`, `new DomainError(…)`) but keep no codes list. */
export function libsWithoutList(raising: readonly string[], lists: Lists): string[] {
  return raising.filter((lib) => !(lib in lists));
}

const domainLibs = readdirSync(LIBS).filter((lib) => !NOT_DOMAIN.has(lib) && existsSync(join(LIBS, lib, 'src')));
const sourcesOf = (lib: string) => sourceFiles(join(LIBS, lib, 'src')).map((f) => readFileSync(f, 'utf8'));
const raises = (sources: readonly string[]) => sources.some((s) => /\bfail\(|new DomainError\(/.test(s));

describe('errors beside their rules', () => {
  const lists = discoverLists();

  it('finds the lists: the kernel and the libs', () => {
    expect(Object.keys(lists)).toEqual(expect.arrayContaining(['kernel', 'tasks', 'properties', 'runs', 'shipping']));
    expect(Object.values(lists).flat().length).toBeGreaterThan(150);
  });

  it('the catalog maps every code of every list, and nothing else', () => {
    expect(catalogGaps(lists, Object.keys(ERROR_CATALOG))).toEqual({ missing: [], extra: [] });
  });

  it('each code is listed once, by one owner', () => {
    expect(listedTwice(lists)).toEqual([]);
  });

  it('every domain lib that raises keeps its own list', () => {
    expect(libsWithoutList(domainLibs.filter((lib) => raises(sourcesOf(lib))), lists)).toEqual([]);
  });

  it.each(domainLibs)('libs/%s raises only its own, the kernel’s or an imported lib’s codes', (lib) => {
    expect(foreignRaises(lib, sourcesOf(lib), lists).filter((r) => !(r in FOREIGN_RAISES_ALLOWED))).toEqual([]);
  });

  it('every allowed foreign raise still happens (no stale exception)', () => {
    const all = domainLibs.flatMap((lib) => foreignRaises(lib, sourcesOf(lib), lists));
    expect(Object.keys(FOREIGN_RAISES_ALLOWED).filter((r) => !all.includes(r))).toEqual([]);
  });

  it('every lib list is exported by its lib, so every program that imports the lib knows its codes', () => {
    const unexported = Object.keys(lists)
      .filter((owner) => owner !== 'kernel' && !owner.startsWith('app/'))
      .flatMap((lib) =>
        readdirSync(join(LIBS, lib, 'src'))
          .filter((f) => f.endsWith('.errors.ts'))
          .filter((f) => !readFileSync(join(LIBS, lib, 'src', 'index.ts'), 'utf8').includes(`'./${f.replace(/\.ts$/, '')}'`))
          .map((f) => relative(ROOT, join(LIBS, lib, 'src', f))),
      );
    expect(unexported).toEqual([]);
  });

  describe('planted breaches', () => {
    const planted: Lists = { kernel: ['request.not_json'], tasks: ['task.not_found', 'task.clash'], shipping: ['ship.no_target'] };

    it('a code a lib lists but the catalog lacks', () => {
      expect(catalogGaps(planted, ['request.not_json', 'task.not_found', 'ship.no_target'])).toEqual({ missing: ['task.clash'], extra: [] });
    });

    it('a catalog entry no list declares', () => {
      expect(catalogGaps(planted, ['request.not_json', 'task.not_found', 'task.clash', 'ship.no_target', 'ship.gone'])).toEqual({
        missing: [],
        extra: ['ship.gone'],
      });
    });

    it('a code two libs list', () => {
      expect(listedTwice({ ...planted, views: ['task.clash'] })).toEqual(['task.clash: tasks, views']);
    });

    it("a lib raising another lib's code without importing it", () => {
      const source = "import { fail } from '@board/kernel';\nexport const go = () => fail('ship.no_target');\nfail('task.clash');";
      expect(foreignRaises('tasks', [source], planted)).toEqual(['tasks: ship.no_target']);
      expect(foreignRaises('tasks', [`import { x } from '@board/shipping';\n${source}`], planted)).toEqual([]);
    });

    it('a raising lib with no list of its own', () => {
      expect(libsWithoutList(['tasks', 'lists'], planted)).toEqual(['lists']);
    });
  });
});
