/**
 * Typed persistence (issue 16 point 3): statements of libs/persistence keep each value beside the
 * words that use it (the `sql` template of libs/persistence/src/sql.ts numbers the placeholders),
 * so no string or template literal there holds a hand-numbered `$1`. Migrations are TypeORM's
 * and keep their fixed texts. The scan is app-boundary.ts's (comments and identifiers never count).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hasPlaceholder, sourceFiles, stringLiterals } from './app-boundary';

const ROOT = resolve(__dirname, '..', '..');
const LIB = 'libs/persistence/src';
/** Migrations are TypeORM's fixed texts; embedded-postgres.ts runs a shell (`"$1"` is the shell's). */
const skipped = (file: string) => file.startsWith(`${LIB}/migrations/`) || file.endsWith('.spec.ts') || file === `${LIB}/embedded-postgres.ts`;

const placeholders = (file: string, text: string) =>
  stringLiterals(file, text)
    .filter((l) => hasPlaceholder(l.text))
    .map((l) => ({ file, line: l.line, text: l.text.replace(/\s+/g, ' ').trim().slice(0, 100) }));

describe('persistence: no hand-numbered placeholders', () => {
  const files = sourceFiles(ROOT, LIB).filter((f) => !skipped(f));

  it('finds no $n in a statement of libs/persistence (outside migrations)', () => {
    const found = files.flatMap((file) => placeholders(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found.map((b) => `${b.file}:${b.line} ${b.text}`)).toEqual([]);
  });

  it('reads the real tree and catches a planted statement', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files).toContain(`${LIB}/database.ts`);
    const planted = "const q = db.query('SELECT id FROM tasks WHERE project_id = $1', [projectId]);";
    expect(placeholders('planted.ts', planted)).toHaveLength(1);
    expect(placeholders('fine.ts', 'const q = db.query(sql`SELECT id FROM tasks WHERE project_id = ${projectId}`); // not $1')).toHaveLength(0);
  });
});
