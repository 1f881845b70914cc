/**
 * The app boundary: `apps/api/src` reaches storage only through the ports, repositories and query
 * objects of the libraries. It holds no SQL text (statements or fragments in string and template
 * literals, `$1`-style placeholders), never imports `Database` from @board/persistence, and imports
 * `pg` / `typeorm` only in the bootstrap files named below, and names adapters (`Pg*` classes,
 * @board/platform) only in a Nest module's wiring: services inject ports. See app-boundary.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Breach, BreachKind, scanSource, scanTree, sourceFiles } from './app-boundary';

const ROOT = resolve(__dirname, '..', '..');
const APP = 'apps/api/src';

/**
 * May import `pg` / `typeorm` (never SQL or Database): the wiring of the connection itself.
 * - app.module.ts takes the TypeORM `DataSource` that app.factory.ts opened (through
 *   @board/persistence's `openDataSource`) and provides it to the persistence module;
 * - system/database.lifecycle.ts closes that `DataSource` at shutdown.
 * app.factory.ts and main.ts reach the database only through @board/persistence's helpers, so they
 * are not exempt: a driver import there would be a breach like any other.
 */
const BOOTSTRAP = [`${APP}/app.module.ts`, `${APP}/system/database.lifecycle.ts`];

/**
 * Files that breach the boundary today, with what they breach. Each entry is removed by the
 * engineer who moves that file's SQL / Database use into libs/persistence (issue 16, phase 2);
 * the list only shrinks: an entry whose file no longer breaches that way fails this test too.
 */
const ALLOWLIST: Record<string, BreachKind[]> = {
};

/** file -> sorted kinds it breaches. */
function byFile(breaches: Breach[]): Map<string, BreachKind[]> {
  const map = new Map<string, Set<BreachKind>>();
  for (const b of breaches) map.set(b.file, (map.get(b.file) ?? new Set()).add(b.kind));
  return new Map([...map].map(([file, kinds]) => [file, [...kinds].sort()]));
}

const kindsOf = (text: string, bootstrap = false): BreachKind[] => [...new Set(scanSource('fixture.ts', text, bootstrap).map((b) => b.kind))].sort();

describe('app boundary: no SQL and no Database in apps/api', () => {
  const breaches = scanTree(ROOT, APP, BOOTSTRAP);
  const found = byFile(breaches);

  it('finds no breach outside the allowlist', () => {
    const unexpected = breaches.filter((b) => !(ALLOWLIST[b.file] ?? []).includes(b.kind));
    expect(unexpected.map((b) => `${b.file}:${b.line} ${b.kind}: ${b.text}`)).toEqual([]);
  });

  it('keeps the allowlist honest: every entry still breaches exactly as listed (the list only shrinks)', () => {
    const stale = Object.entries(ALLOWLIST)
      .filter(([file, kinds]) => JSON.stringify(found.get(file) ?? []) !== JSON.stringify([...kinds].sort()))
      .map(([file, kinds]) => `${file}: listed ${kinds.join(',')}, breaches ${(found.get(file) ?? []).join(',') || 'nothing'}`);
    expect(stale).toEqual([]);
  });

  it('scans the real tree (a scan that reads nothing would pass for the wrong reason)', () => {
    // The allowlist is empty now, so the real tree has no breach to anchor on: check that the scan
    // reads every source file of the app, and that the same scan finds a breach planted in a tree.
    expect(sourceFiles(ROOT, APP).length).toBeGreaterThan(100);
    const tree = mkdtempSync(join(tmpdir(), 'app-boundary-'));
    try {
      mkdirSync(join(tree, 'src', 'feature'), { recursive: true });
      writeFileSync(join(tree, 'src', 'feature', 'clean.service.ts'), "export const sentence = 'Select a task first.';\n");
      writeFileSync(join(tree, 'src', 'feature', 'leaky.service.ts'), "import { Database } from '@board/persistence';\nexport const q = 'SELECT id FROM tasks';\n");
      const planted = byFile(scanTree(tree, 'src', []));
      expect([...planted]).toEqual([['src/feature/leaky.service.ts', ['database', 'sql']]]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  describe('catches each kind of breach (fixtures)', () => {
    it('SQL statements and fragments in strings and templates', () => {
      expect(kindsOf("const q = 'SELECT id FROM tasks WHERE project_id = x';")).toEqual(['sql']);
      expect(kindsOf('const q = `INSERT INTO tasks (id) VALUES (${id})`;')).toEqual(['sql']);
      expect(kindsOf('const q = `UPDATE tasks SET title = ${t}`;')).toEqual(['sql']);
      expect(kindsOf('const q = "DELETE FROM comments";')).toEqual(['sql']);
      expect(kindsOf('const q = `WITH ranked AS (${inner}) ${rest}`;')).toEqual(['sql']);
      expect(kindsOf("const q = 'SELECT pg_advisory_xact_lock(7)';")).toEqual(['sql']);
      expect(kindsOf("const part = ' FROM tasks t JOIN options o ON o.id = t.id';")).toEqual(['sql']);
      expect(kindsOf('const f = (x: string) => x + `${y} ON CONFLICT (id) DO NOTHING`;')).toEqual(['sql']);
    });

    it('placeholders, imports of Database and drivers', () => {
      expect(kindsOf("const where = 'id = $1 AND project_id = $2';")).toEqual(['placeholder']);
      expect(kindsOf("import { Database } from '@board/persistence';")).toEqual(['database']);
      expect(kindsOf("import { Database as Db, TaskQuery } from '@board/persistence';")).toEqual(['database']);
      expect(kindsOf("import type { Database } from '@board/persistence';")).toEqual(['database']);
      expect(kindsOf("import * as persistence from '@board/persistence';")).toEqual(['database']);
      expect(kindsOf("const { Database } = require('@board/persistence');")).toEqual(['database']);
      expect(kindsOf("export { Database } from '@board/persistence';")).toEqual(['database']);
      expect(kindsOf("import { Pool } from 'pg';")).toEqual(['driver']);
      expect(kindsOf("import { DataSource } from 'typeorm';")).toEqual(['driver']);
      expect(kindsOf("const pg = await import('pg');")).toEqual(['driver']);
    });

    it('adapters named outside a module wiring, instead of their ports', () => {
      expect(kindsOf("import { PgTaskRepository } from '@board/persistence';")).toEqual(['adapter']);
      expect(kindsOf("import { TaskQuery, PgNotificationListener } from '@board/persistence';")).toEqual(['adapter']);
      expect(kindsOf("import { HttpWebhookSender } from '@board/platform';")).toEqual(['adapter']);
      const wiring = (text: string) => [...new Set(scanSource('tasks.module.ts', text).map((b) => b.kind))];
      expect(wiring("import { PgTaskRepository } from '@board/persistence';\nimport { S3ObjectStore } from '@board/platform';")).toEqual([]);
    });

    it('lets through what is not a breach', () => {
      expect(kindsOf("import { TaskQuery, PRESENCE_CHANNEL } from '@board/persistence';")).toEqual([]);
      expect(kindsOf("const { startEmbeddedPostgres } = await import('@board/persistence');")).toEqual([]);
      // contract sentences and comments are not SQL
      expect(kindsOf("// SELECT id FROM tasks\nconst m = 'Select one of the options from the list.';")).toEqual([]);
      expect(kindsOf("const m = 'Only the owner can delete this project.'; const p = `${a}$${b}`;")).toEqual([]);
      // a bootstrap file may import the driver, never SQL
      expect(kindsOf("import { DataSource } from 'typeorm';", true)).toEqual([]);
      expect(kindsOf("import { DataSource } from 'typeorm'; const q = 'SELECT 1';", true)).toEqual(['sql']);
    });
  });
});
