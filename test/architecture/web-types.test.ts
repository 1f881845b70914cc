/**
 * The board page is typed against the service's own types: apps/web/src/api/types.ts reads every
 * answer shape off the generated libs/client/src/schema.d.ts (`npm run client:types`) and declares
 * none by hand. The one exception is the GAPS block (fields the service sends that its document
 * leaves out or types as `unknown` / `never`); an entry there fails this test as soon as the
 * generated type carries that field usefully, so the block only shrinks.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const TYPES = resolve(ROOT, 'apps/web/src/api/types.ts');
const SCHEMA_IMPORT = '../../../../libs/client/src/schema';

/** Where each gap group sits in the generated types (the `S` and `Answer` of types.ts). */
const GAP_HOME: Record<string, string> = {
  Project: "S['Project']",
  Option: "S['Option']",
  PropertyConfig: "S['Property']['config']",
  View: "S['View']",
  Run: "S['Run']",
  ActivityEntry: "S['ActivityEntry']",
  ListTask: "Answer<'/api/lists/{listId}', 'get'>['tasks'][number]",
};

function gapRange(text: string): [number, number] {
  const start = text.indexOf('// GAPS:START');
  const end = text.indexOf('// GAPS:END');
  return start >= 0 && end > start ? [start, end] : [-1, -1];
}

/** Hand-written shapes outside the gap block: interfaces, and keyword or literal types standing as a member, alias or union arm. */
export function handShapes(text: string): string[] {
  const source = ts.createSourceFile('types.ts', text, ts.ScriptTarget.ES2022, true);
  const [gapStart, gapEnd] = gapRange(text);
  const inGaps = (n: ts.Node) => n.getStart(source) >= gapStart && n.getEnd() <= gapEnd;
  const found: string[] = [];
  const line = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const isShapeType = (n: ts.Node) =>
    ts.isLiteralTypeNode(n) ||
    n.kind === ts.SyntaxKind.StringKeyword ||
    n.kind === ts.SyntaxKind.NumberKeyword ||
    n.kind === ts.SyntaxKind.BooleanKeyword ||
    n.kind === ts.SyntaxKind.NullKeyword ||
    n.kind === ts.SyntaxKind.UnknownKeyword ||
    n.kind === ts.SyntaxKind.AnyKeyword;
  const visit = (n: ts.Node): void => {
    if (inGaps(n)) return;
    if (ts.isInterfaceDeclaration(n)) found.push(`line ${line(n)}: interface ${n.name.text}`);
    if (isShapeType(n)) {
      const p = n.parent;
      const standsAlone =
        ts.isPropertySignature(p) || ts.isTypeAliasDeclaration(p) || ts.isUnionTypeNode(p) || ts.isArrayTypeNode(p) || ts.isIntersectionTypeNode(p);
      // Inside a type-literal member or alias the shape is spelled out by hand; as an index
      // (S['User']) or a type argument (Omit<…, 'config'>, Answer<'/api/…'>) it names generated parts.
      const nullOfNamed = ts.isLiteralTypeNode(n) && n.literal.kind === ts.SyntaxKind.NullKeyword && ts.isUnionTypeNode(p) && p.types.some(ts.isTypeReferenceNode);
      if (standsAlone && !nullOfNamed && !inTypeParameter(n)) found.push(`line ${line(n)}: ${n.getText(source)}`);
    }
    ts.forEachChild(n, visit);
  };
  // The helpers' own generic parameters (Methods, Answer) hold `number` as a constraint or default;
  // keys handed to a generic (Omit<S['Run'], 'steps' | 'log'>) name generated fields.
  const inTypeParameter = (n: ts.Node): boolean => {
    for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
      if (ts.isTypeParameterDeclaration(p) || ts.isConditionalTypeNode(p) || ts.isTypeReferenceNode(p)) return true;
    }
    return false;
  };
  visit(source);
  return found;
}

/** Gap fields that the generated type already carries as something other than unknown / never. */
function settledGaps(text: string): string[] {
  const source = ts.createSourceFile('types.ts', text, ts.ScriptTarget.ES2022, true);
  const gap = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Gap');
  if (!gap) return [];
  const probes: string[] = [];
  const names: string[] = [];
  for (const group of gap.members) {
    if (!ts.isPropertySignature(group) || !group.type || !ts.isTypeLiteralNode(group.type)) continue;
    const key = group.name.getText(source);
    const home = GAP_HOME[key];
    if (!home) throw new Error(`gap group ${key} has no home in GAP_HOME: add where it sits in the generated types`);
    for (const field of group.type.members) {
      const name = field.name!.getText(source);
      names.push(`${key}.${name}`);
      probes.push(`export type P${probes.length} = ${home} extends { ${name}?: infer T } ? ('${name}' extends keyof ${home} ? T : 'ABSENT') : 'ABSENT';`);
    }
  }
  const probePath = resolve(ROOT, 'apps/web/src/api/__gap-probe.ts');
  const helpers = text.slice(text.indexOf('type S ='), text.indexOf('  ? T\n  : never;') + '  ? T\n  : never;'.length);
  const probeText = `import type { components, paths } from '${SCHEMA_IMPORT}';\n${helpers}\n${probes.join('\n')}\n`;
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => (resolve(file) === probePath ? ts.createSourceFile(file, probeText, lang) : read(file, lang, ...rest));
  const exists = host.fileExists.bind(host);
  host.fileExists = (file) => resolve(file) === probePath || exists(file);
  const program = ts.createProgram([probePath], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) throw new Error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  const checker = program.getTypeChecker();
  const probe = program.getSourceFile(probePath)!;
  const settled: string[] = [];
  probe.statements.filter((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && /^P\d+$/.test(s.name.text)).forEach((alias, i) => {
    const shown = checker.typeToString(checker.getTypeAtLocation(alias.name), undefined, ts.TypeFormatFlags.NoTruncation);
    const useless = shown === '"ABSENT"' || /\bunknown\b|\bnever\b/.test(shown);
    if (!useless) settled.push(`${names[i]} is now ${shown}`);
  });
  return settled;
}

describe('the board page types (apps/web/src/api/types.ts)', () => {
  const text = readFileSync(TYPES, 'utf8');

  it('reads the generated schema with a type-only import', () => {
    expect(text).toContain(`import type { components, paths } from '${SCHEMA_IMPORT}';`);
    expect(text).not.toMatch(/^import (?!type )/m);
  });

  it('declares no answer shape by hand outside the gap block', () => {
    expect(handShapes(text)).toEqual([]);
  });

  it('keeps in the gap block only fields the generated types still lack', () => {
    expect(settledGaps(text)).toEqual([]);
  }, 60_000);

  it('catches a hand-written shape (planted)', () => {
    const planted = text.replace('export const AVATAR_COLOURS', "export interface Invite2 { email: string }\nexport type Role2 = 'owner' | 'admin';\nexport const AVATAR_COLOURS");
    expect(handShapes(planted)).toEqual(expect.arrayContaining([expect.stringContaining('interface Invite2'), expect.stringContaining("'owner'")]));
  });
});
