/**
 * Validate once, into typed commands (issue "One write protocol", point 2): what a controller
 * hands an application service is what the request DTO read — a typed command, never a body the
 * service reads again. No service method a controller calls takes a parameter typed `unknown`,
 * `any`, `object` or `Record<string, unknown>`, nor a command, DTO or shape with such a field,
 * followed through the interfaces, type aliases and DTO classes it names (in apps/api and libs).
 *
 * A field whose reading is truly stored state's is the exception, listed below with why: a value
 * of a property, whose rules are the stored property's type, is carried as sent and read by the
 * domain once the definitions are loaded. A field the contract refuses after stored state is no
 * exception: it is read at the edge and its refusal waits its turn (kernel `InTurn`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const APP = join(ROOT, 'apps', 'api', 'src');
const LIBS = join(ROOT, 'libs');

/** `Shape.field` carried as sent, and why. */
const AS_SENT: Record<string, string> = {
  'CreateTask.values': "values by property: each one's rules are its property's type (readCreateValues)",
  'MoveTask.values': "values by property: each one's rules are its property's type (readValuesMap)",
  'PutValue.value': "a value: its rules are the property's type (readOneValue)",
  'BulkValues.value': "a value: its rules are the property's type (normalizeValue)",
  'BulkArchive.value': "a column's value: what it matches is the property's type",
  'DefaultsAsked.value': "a Type default: its rules are the property's type (checkDefaultsPatch)",
};

/** Documents whose format a domain reader owns, passed whole to it (their records are read by the domain, not the service). */
const DOCUMENTS: Record<string, string> = {
  BoardExport: 'a project export: the import plan owns its format and reads it record by record (planBoardExport)',
};

function sources(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path, keep);
    return keep(name) ? [path] : [];
  });
}

const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts');

/** A named shape a parameter may lead to: an interface, a type alias, or a DTO class. */
type Shape = ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.ClassDeclaration;

const typeName = (node: ts.TypeReferenceNode): string => (ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text);

/** `unknown`, `any`, `object`, or a `Record` of them: a body nobody read. */
function rawType(node: ts.TypeNode): string | null {
  if (node.kind === ts.SyntaxKind.UnknownKeyword) return 'unknown';
  if (node.kind === ts.SyntaxKind.AnyKeyword) return 'any';
  if (node.kind === ts.SyntaxKind.ObjectKeyword) return 'object';
  if (ts.isTypeReferenceNode(node) && typeName(node) === 'Record' && node.typeArguments?.length === 2) {
    const value = node.typeArguments[1];
    if (value.kind === ts.SyntaxKind.UnknownKeyword || value.kind === ts.SyntaxKind.AnyKeyword) return `Record<…, ${value.getText()}>`;
  }
  return null;
}

/**
 * The offences of service methods that controllers call, as `Service.method(param): why`.
 * `files` maps a path to its text: controllers (`*.controller.ts`), services (`*.service.ts`),
 * DTOs (`*.dto.ts`) and the libs' sources, whose interfaces and type aliases are followed.
 */
export function commandOffences(files: ReadonlyMap<string, string>): string[] {
  const parsed = [...files].map(([path, text]) => ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
  const shapes = new Map<string, Shape>();
  const services = new Map<string, ts.ClassDeclaration>();
  for (const source of parsed) {
    source.forEachChild((node) => {
      if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && !shapes.has(node.name.text)) shapes.set(node.name.text, node);
      if (!ts.isClassDeclaration(node) || !node.name) return;
      if (source.fileName.endsWith('.dto.ts')) shapes.set(node.name.text, node);
      if (source.fileName.endsWith('.service.ts')) services.set(node.name.text, node);
    });
  }

  /** Why a type carries a raw body, or null; `seen` stops a recursive type. */
  const carries = (node: ts.Node, seen: Set<string>): string | null => {
    let found: string | null = null;
    const visit = (n: ts.Node, owner: string | null): void => {
      if (found) return;
      if ((ts.isPropertySignature(n) || ts.isPropertyDeclaration(n)) && n.type) {
        const field = n.name.getText();
        const raw = rawType(n.type);
        if (raw) {
          if (!(owner && AS_SENT[`${owner}.${field}`])) found = `${owner ?? 'a shape'}.${field} is ${raw}`;
          return;
        }
        return visit(n.type, owner);
      }
      if (ts.isTypeNode(n)) {
        const raw = rawType(n);
        if (raw) return void (found = `is ${raw}`);
      }
      if (ts.isTypeReferenceNode(n)) {
        const name = typeName(n);
        const shape = shapes.get(name);
        if (shape && !seen.has(name) && !DOCUMENTS[name]) {
          seen.add(name);
          const inner = carries(shape, seen);
          if (inner) return void (found = inner);
        }
      }
      // Methods of a DTO class (`command()`) are behaviour, not fields.
      if (ts.isMethodDeclaration(n) || ts.isDecorator(n)) return;
      n.forEachChild((child) => visit(child, owner));
    };
    if (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) node.members.forEach((m) => visit(m, node.name?.text ?? null));
    else if (ts.isTypeAliasDeclaration(node)) visit(node.type, node.name.text);
    else visit(node, null);
    return found;
  };

  const found: string[] = [];
  for (const source of parsed.filter((s) => s.fileName.endsWith('.controller.ts'))) {
    const fields = new Map<string, string>();
    const calls: { field: string; method: string }[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isConstructorDeclaration(node)) {
        for (const param of node.parameters) {
          if (param.type && ts.isTypeReferenceNode(param.type) && ts.isIdentifier(param.name)) fields.set(param.name.text, typeName(param.type));
        }
      }
      // this.<field>.<method>(…)
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const target = node.expression.expression;
        if (ts.isPropertyAccessExpression(target) && target.expression.kind === ts.SyntaxKind.ThisKeyword) {
          calls.push({ field: target.name.text, method: node.expression.name.text });
        }
      }
      node.forEachChild(visit);
    };
    visit(source);
    for (const { field, method } of calls) {
      const serviceName = fields.get(field);
      const service = serviceName ? services.get(serviceName) : undefined;
      if (!service) continue;
      for (const member of service.members) {
        if (!ts.isMethodDeclaration(member) || member.name.getText() !== method) continue;
        for (const param of member.parameters) {
          const name = param.name.getText();
          // A parameter with a default and no type is typed by its default (`pingMs = 25_000`).
          const why = param.type ? carries(param.type, new Set()) : param.initializer ? null : 'has no type';
          const offence = `${serviceName}.${method}(${name}) ${why}`;
          if (why && !found.includes(offence)) found.push(offence);
        }
      }
    }
  }
  return found;
}

function appAndLibSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of sources(APP, isSource)) files.set(relative(ROOT, path), readFileSync(path, 'utf8'));
  for (const lib of readdirSync(LIBS)) {
    const src = join(LIBS, lib, 'src');
    if (lib === 'client' || !statSync(join(LIBS, lib)).isDirectory()) continue;
    try {
      if (!statSync(src).isDirectory()) continue;
    } catch {
      continue;
    }
    for (const path of sources(src, isSource)) files.set(relative(ROOT, path), readFileSync(path, 'utf8'));
  }
  return files;
}

describe('services take typed commands', () => {
  it('catches a service that takes a raw body from a controller (planted)', () => {
    const planted = new Map([
      [
        'apps/api/src/planted/planted.controller.ts',
        [
          'export class PlantedController {',
          '  constructor(private readonly planted: PlantedService, private readonly other: OtherService) {}',
          '  a(@Body() body: Record<string, unknown>) { return this.planted.take(body); }',
          '  b(@Body() body: PlantedBody) { return this.planted.dto(body); }',
          '  c(@Body() body: TypedBody) { return this.planted.change(body.command()); }',
          '  d(@Query() query: { q?: unknown }) { return this.planted.search(query.q); }',
          '  e(body: unknown) { return this.other.fine(body as never); }',
          '}',
        ].join('\n'),
      ],
      [
        'apps/api/src/planted/planted.dto.ts',
        [
          'export class PlantedBody {',
          '  @Keeps("name", readName) name: string;',
          '  @FieldRule("flag", () => null) flag?: unknown;',
          '}',
          'export class TypedBody {',
          '  @Keeps("name", readName) name: string;',
          '  command(): PlantedChange { return { name: this.name, values: undefined }; }',
          '}',
        ].join('\n'),
      ],
      [
        'libs/planted/src/commands.ts',
        [
          'export interface PlantedChange { name: string; nested?: Nested; values?: unknown }',
          'export interface Nested { sent: Partial<Record<string, any>> }',
        ].join('\n'),
      ],
      [
        'apps/api/src/planted/planted.service.ts',
        [
          'export class PlantedService {',
          '  take(body: Record<string, unknown>) {}',
          '  dto(body: PlantedBody) {}',
          '  change(change: PlantedChange) {}',
          '  search(q: unknown) {}',
          '  notCalled(raw: unknown) {}',
          '}',
          'export class OtherService {',
          '  fine(change: { name: string }, clientId: string | null = null) {}',
          '}',
        ].join('\n'),
      ],
    ]);
    expect(commandOffences(planted)).toEqual([
      'PlantedService.take(body) is Record<…, unknown>',
      'PlantedService.dto(body) PlantedBody.flag is unknown',
      'PlantedService.change(change) is Record<…, any>',
      'PlantedService.search(q) is unknown',
    ]);
  });

  it('lets a listed value through as sent, and only it', () => {
    const files = new Map([
      ['apps/api/src/x/x.controller.ts', 'export class XController {\n  constructor(private readonly x: XService) {}\n  a(b: PutValue) { return this.x.put(b); }\n}'],
      ['libs/x/src/commands.ts', 'export interface PutValue { value: unknown; other: unknown }'],
      ['apps/api/src/x/x.service.ts', 'export class XService {\n  put(command: PutValue) {}\n}'],
    ]);
    expect(commandOffences(files)).toEqual(['XService.put(command) PutValue.other is unknown']);
  });

  it('no service a controller calls takes a body it must read again', () => {
    const files = appAndLibSources();
    expect([...files.keys()].filter((p) => p.endsWith('.controller.ts')).length).toBeGreaterThan(20);
    expect(commandOffences(files)).toEqual([]);
  });
});
