/**
 * Read models are ports (issue 25 point 4): `libs/persistence/src/<area>/<name>.query.ts` states
 * what a read answers (abstract classes and the answer's types, nothing that runs a statement) and
 * `pg-<name>.query.ts` beside it answers it in SQL (`Pg…Query extends …Query`). Services inject the
 * port (app-boundary.test.ts keeps `Pg*` out of them), modules bind it with `useClass`, and service
 * specs hand the service a typed in-memory fake (test/support/in-memory) with no cast.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sourceFiles } from './app-boundary';

const ROOT = resolve(__dirname, '..', '..');
const LIB = 'libs/persistence/src';
const APP = 'apps/api/src';

/** What a port file of a read model must not do: declare a class that is not abstract, or import something to run. */
export function portBreaches(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^export (abstract )?class (\w+)/gm)) if (!m[1]) out.push(`${file}: class ${m[2]} is not abstract`);
  for (const m of text.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gm)) out.push(`${file}: imports ${m[1]} to run`);
  return out;
}

/** What an adapter file must do: name each of its read models Pg…Query after the port it extends. */
export function adapterBreaches(file: string, text: string): string[] {
  const out: string[] = [];
  const classes = [...text.matchAll(/^export class (\w+)(?: extends (\w+))?/gm)];
  if (classes.length === 0) out.push(`${file}: answers no port`);
  for (const [, name, port] of classes) if (!port || name !== `Pg${port}`) out.push(`${file}: ${name} does not extend its port as Pg${port ?? '…'}`);
  return out;
}

/** Read-model ports a module lists bare (Nest would build the abstract class itself). */
export function bareProviders(file: string, text: string, ports: readonly string[]): string[] {
  // `providers: [...]` of a @Module, or the `const providers = [...]` a dynamic module builds.
  const providers = /providers(?::\s*|\s*=\s*)\[([\s\S]*?)\]/.exec(text)?.[1] ?? '';
  const listed = providers.replace(/\{[^}]*\}/g, '');
  return ports.filter((port) => new RegExp(`\\b${port}\\b`).test(listed)).map((port) => `${file}: provides ${port} bare`);
}

describe('read models are ports with PostgreSQL adapters', () => {
  const files = sourceFiles(ROOT, LIB).filter((f) => f.endsWith('.query.ts'));
  const ports = files.filter((f) => !basename(f).startsWith('pg-'));
  const adapters = files.filter((f) => basename(f).startsWith('pg-'));
  const portNames = ports.flatMap((f) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^export abstract class (\w+)/gm)].map((m) => m[1]));

  it('each port file declares abstract classes and types only, and has its adapter beside it', () => {
    const found = ports.flatMap((f) => portBreaches(f, readFileSync(join(ROOT, f), 'utf8')));
    const alone = ports.filter((f) => !existsSync(join(ROOT, dirname(f), `pg-${basename(f)}`))).map((f) => `${f}: no pg-${basename(f)} beside it`);
    expect([...found, ...alone]).toEqual([]);
  });

  it('each adapter extends its port as Pg…Query', () => {
    expect(adapters.flatMap((f) => adapterBreaches(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('no module provides a read-model port bare (always `{ provide: …Query, useClass: Pg…Query }`)', () => {
    const modules = [...sourceFiles(ROOT, APP), `${LIB}/persistence.module.ts`].filter((f) => f.endsWith('.module.ts'));
    expect(modules.flatMap((f) => bareProviders(f, readFileSync(join(ROOT, f), 'utf8'), portNames))).toEqual([]);
  });

  it('reads the real tree and catches planted breaches', () => {
    expect(ports.length).toBeGreaterThan(20);
    expect(portNames).toEqual(expect.arrayContaining(['TaskQuery', 'ProjectQuery', 'RunQuery']));
    expect(adapters).toContain(`${LIB}/tasks/pg-task.query.ts`);
    expect(portBreaches('x.query.ts', "import { sql } from '../sql';\nexport class TaskQuery {}")).toHaveLength(2);
    expect(portBreaches('x.query.ts', "import type { DoneWhen } from '@board/tasks';\nexport abstract class TaskQuery {}")).toEqual([]);
    expect(adapterBreaches('pg-x.query.ts', 'export class TaskQuery {')).toHaveLength(1);
    expect(adapterBreaches('pg-x.query.ts', 'export class PgRunQuery extends TaskQuery {')).toHaveLength(1);
    expect(adapterBreaches('pg-x.query.ts', 'export class PgTaskQuery extends TaskQuery {')).toEqual([]);
    const module = (providers: string) => `@Module({\n  providers: [${providers}],\n  exports: [TaskQuery],\n})`;
    expect(bareProviders('a.module.ts', module('TasksService, TaskQuery'), ['TaskQuery'])).toHaveLength(1);
    expect(bareProviders('a.module.ts', module('TasksService, { provide: TaskQuery, useClass: PgTaskQuery }'), ['TaskQuery'])).toEqual([]);
    expect(bareProviders('p.module.ts', 'const providers = [\n  Database,\n  TaskQuery,\n];', ['TaskQuery'])).toHaveLength(1);
  });
});
