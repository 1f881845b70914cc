/**
 * Feed lines, webhook outbox rows and stream notices are written in one place: the unit of work,
 * from the events a write declares (`withEvents(result, feedLine(…), notice(…))` or `silent`).
 * Application code may not reach the recorder, the announcer or the notice channels directly, so
 * a write cannot leave a feed line without its outbox rows, or ring the stream by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const APP = join(ROOT, 'apps', 'api', 'src');
const LIBS = join(ROOT, 'libs');

/** What only the unit of work's adapter may use. */
const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /\bActivityRecorder\b|\bPgActivityRecorder\b/, why: 'the recorder (declare feedLine events instead)' },
  { pattern: /\bChangeAnnouncer\b|\bPgChangeAnnouncer\b/, why: 'the announcer (declare notice events instead)' },
  { pattern: /\.record(Many|RingingOnce)?\(|\.announce\(\s*\{/, why: 'a direct record/announce call' },
  // Presence (who edits which field) is no change of the project: its own channel, no feed line.
  { pattern: /\bCHANGE_CHANNEL\b|\bWEBHOOK_CHANNEL\b|\.notify\((?!PRESENCE_CHANNEL\b)/, why: 'a notice sent by hand' },
  { pattern: /\buow\.run\(/, why: 'a transaction that declares no events (use uow.write)' },
];

/** The offences of one source text, as `line: why`. */
export function offences(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { pattern, why } of FORBIDDEN) if (pattern.test(line)) found.push(`${i + 1}: ${why}`);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Types that carry a write's events: only the unit of work takes them. */
const EVENT_TYPES = new Set(['ActivityLine', 'Change', 'WriteEvent', 'Written', 'Events']);
/** Field names that smuggle a feed line or a notice in an untyped shape (`Record<string, unknown>`). */
const EVENT_FIELDS = new Set(['line', 'lines', 'notice', 'notices', 'feedLine', 'activity', 'history']);
/** The one port that takes events: it is how a write declares them. */
const EVENT_PORTS = new Set(['UnitOfWork']);

/**
 * The methods of ports (abstract classes of libs/) that take a feed line or a notice: by type
 * (`ActivityLine`, `Change`, …) or by field name, through the interfaces and type aliases their
 * parameters name (followed across the files given; classes such as aggregates are not followed).
 */
export function portOffences(files: ReadonlyMap<string, string>): string[] {
  const sources = [...files].map(([path, text]) => ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
  const shapes = new Map<string, ts.Node>();
  for (const source of sources) {
    source.forEachChild((node) => {
      if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && !shapes.has(node.name.text)) shapes.set(node.name.text, node);
    });
  }
  /** Why a type node carries events, or null; `seen` stops a recursive type. */
  const carries = (node: ts.Node, seen: Set<string>): string | null => {
    let found: string | null = null;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isTypeReferenceNode(n)) {
        const name = ts.isIdentifier(n.typeName) ? n.typeName.text : n.typeName.right.text;
        if (EVENT_TYPES.has(name)) return void (found = `takes ${name}`);
        const shape = shapes.get(name);
        if (shape && !seen.has(name)) {
          seen.add(name);
          const inner = carries(shape, seen);
          if (inner) return void (found = `${inner} (through ${name})`);
        }
      }
      if ((ts.isPropertySignature(n) || ts.isPropertyDeclaration(n)) && n.name && ts.isIdentifier(n.name) && EVENT_FIELDS.has(n.name.text)) {
        return void (found = `takes a field '${n.name.text}'`);
      }
      n.forEachChild(visit);
    };
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) node.forEachChild(visit);
    else visit(node);
    return found;
  };
  const found: string[] = [];
  for (const source of sources) {
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name || EVENT_PORTS.has(node.name.text)) return;
      if (!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AbstractKeyword)) return;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !member.name) continue;
        for (const param of member.parameters) {
          const why = param.type ? carries(param.type, new Set()) : null;
          if (why) found.push(`${source.fileName}: ${node.name.text}.${member.name.getText(source)}(${param.name.getText(source)}) ${why}`);
        }
      }
    });
  }
  return found;
}

function libSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const lib of readdirSync(LIBS)) {
    const src = join(LIBS, lib, 'src');
    try {
      if (!statSync(src).isDirectory()) continue;
    } catch {
      continue;
    }
    for (const path of sources(src)) if (!path.endsWith('.d.ts')) files.set(relative(ROOT, path), readFileSync(path, 'utf8'));
  }
  return files;
}

describe('write events', () => {
  it('catches a write that records, announces or notifies by hand (fixture)', () => {
    const breach = [
      "import { ActivityRecorder, UnitOfWork } from '@board/kernel';",
      '  constructor(private readonly activity: ActivityRecorder, private readonly changes: ChangeAnnouncer) {}',
      "    await this.activity.record({ projectId, taskId, actorId, kind: 'comment', data });",
      "    await this.changes.announce({ projectId, scope: 'task', taskId, clientId });",
      '    await this.db.notify(WEBHOOK_CHANNEL, projectId);',
      '    await this.uow.run(async () => {',
    ].join('\n');
    expect(offences(breach).map((o) => o.split(':')[0])).toEqual(['1', '2', '2', '3', '4', '5', '6']);
    // A declared write passes.
    const declared = "    return this.uow.write(async () => withEvents(undefined, feedLine(line), notice({ projectId, scope: 'board', clientId })));";
    expect(offences(declared)).toEqual([]);
  });

  it('apps/api leaves feed lines and notices to the unit of work', () => {
    const files = sources(APP);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((path) => offences(readFileSync(path, 'utf8')).map((o) => `${relative(ROOT, path)}:${o}`));
    expect(found).toEqual([]);
  });

  it('catches a port that takes a feed line or a notice (fixture)', () => {
    const planted = new Map([
      [
        'libs/planted/src/ports.ts',
        [
          "import { ActivityLine, Change } from '@board/kernel';",
          'export interface SaveInput { id: string; line: Record<string, unknown> | null }',
          'export interface Wrapped { input: SaveInput }',
          'export interface Plain { id: string; title: string }',
          'export abstract class PlantedRepository {',
          '  abstract record(line: ActivityLine): Promise<void>;',
          '  abstract ring(projectId: string, change: Change): Promise<void>;',
          '  abstract save(input: SaveInput): Promise<void>;',
          '  abstract saveWrapped(input: Wrapped[]): Promise<void>;',
          '  abstract plain(input: Plain, at: Date): Promise<void>;',
          '}',
          // Not a port: an adapter may take lines (it is the unit of work's).
          'export class PlantedRecorder { record(lines: ActivityLine[]): void {} }',
        ].join('\n'),
      ],
    ]);
    expect(portOffences(planted)).toEqual([
      'libs/planted/src/ports.ts: PlantedRepository.record(line) takes ActivityLine',
      'libs/planted/src/ports.ts: PlantedRepository.ring(change) takes Change',
      "libs/planted/src/ports.ts: PlantedRepository.save(input) takes a field 'line' (through SaveInput)",
      "libs/planted/src/ports.ts: PlantedRepository.saveWrapped(input) takes a field 'line' (through SaveInput) (through Wrapped)",
    ]);
  });

  it('no port of libs/ takes a feed line or a notice: the unit of work writes them from declared events', () => {
    const files = libSources();
    expect(files.size).toBeGreaterThan(50);
    expect(portOffences(files).filter((o) => !KNOWN_EXCEPTIONS.some((k) => o.includes(k)))).toEqual([]);
    // Each exception is still needed (a stale one fails, so the list cannot grow quietly).
    for (const k of KNOWN_EXCEPTIONS) expect(portOffences(files).some((o) => o.includes(k))).toBe(true);
  });
});

/**
 * Ports that may take feed lines, each with why. An import of a project export restores the
 * export's feed lines as they were (their own times and actors): they are data brought back, not
 * events of this write, and must ring no webhook and notify nobody. The write's own `import` lines
 * still go through the unit of work.
 */
const KNOWN_EXCEPTIONS = ["BoardExportRepository.write(plan) takes a field 'history'"];
