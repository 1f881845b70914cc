import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * SQL leaves the domain (issue #25, point 6): the domain libs say what they need (a filter plan,
 * a port) and libs/persistence alone writes SQL. Every `libs/*` but the two adapters is domain code
 * (the dependency rule's split): none may hold a `sql\`…\`` template, nor build statement text in
 * its strings (SQL words, casts, jsonb functions, quoted columns).
 */
const ROOT = join(__dirname, '..', '..');
const LIBS = join(ROOT, 'libs');
const ADAPTERS = new Set(['persistence', 'platform']);

const SQL_IN_TEXT: readonly [string, RegExp][] = [
  ['SELECT … FROM', /\bSELECT\b[\s\S]*\bFROM\b/],
  ['INSERT INTO', /\bINSERT\s+INTO\b/],
  ['UPDATE … SET', /\bUPDATE\s+\S+\s+SET\b/],
  ['DELETE FROM', /\bDELETE\s+FROM\b/],
  ['a clause', /\b(?:WHERE|JOIN|GROUP BY|ORDER BY|COALESCE|CASE WHEN)\b/],
  ['a cast', /::(?:jsonb|json|text|uuid|int|bigint|float8|numeric|date|timestamptz)\b/],
  ['a jsonb function or operator', /\bjsonb_[a-z_]+\s*\(|#>>|\?\|/],
  ['a quoted column', /\b[a-z]\."[a-z_]+"/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Comments say why, and may name SQL; only code counts. Block comments and whole-line `//` comments go. */
const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** What a source builds SQL with: `sql` templates, and string or template literals that read as SQL. */
export function sqlIn(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  if (/\bsql`/.test(code)) found.push('a sql`…` template');
  const literals = code.match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [];
  for (const literal of literals) {
    for (const [what, pattern] of SQL_IN_TEXT) if (pattern.test(literal)) found.push(`${what}: ${literal.slice(0, 60)}`);
  }
  return found;
}

const files = readdirSync(LIBS)
  .filter((lib) => !ADAPTERS.has(lib) && statSync(join(LIBS, lib)).isDirectory())
  .flatMap((lib) => sourceFiles(join(LIBS, lib)));

describe('no SQL in the domain', () => {
  it('reads the domain libs', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.includes(join('libs', 'filters', 'src')))).toBe(true);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s', (_name, file) => {
    expect(sqlIn(readFileSync(file, 'utf8'))).toEqual([]);
  });

  describe('planted breaches', () => {
    it('the filter compiler back in libs/filters: the values column, casts, jsonb', () => {
      const planted = "const value = (id: string) => `(t.\"values\" -> ${id}::text)`;\nconst empty = (x: string) => `COALESCE(${x} IN ('null'::jsonb), TRUE)`;";
      expect(sqlIn(planted)).toEqual([
        'a cast: `(t."values" -> ${id}::text)`',
        'a quoted column: `(t."values" -> ${id}::text)`',
        "a clause: `COALESCE(${x} IN ('null'::jsonb), TRUE)`",
        "a cast: `COALESCE(${x} IN ('null'::jsonb), TRUE)`",
      ]);
    });

    it('a sql template and a statement in a string', () => {
      expect(sqlIn("const q = sql`SELECT 1`;")).toContain('a sql`…` template');
      expect(sqlIn("const q = 'SELECT id FROM tasks';")).toEqual(["SELECT … FROM: 'SELECT id FROM tasks'"]);
      expect(sqlIn("const q = 'DELETE FROM tasks';")).toEqual(["DELETE FROM: 'DELETE FROM tasks'"]);
    });

    it('but not SQL named in a comment', () => {
      expect(sqlIn("// the SQL side reads SELECT x FROM y\n/* t.\"values\"::jsonb */\nconst a = 'plain words';")).toEqual([]);
    });
  });
});
