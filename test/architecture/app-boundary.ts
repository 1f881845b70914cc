/**
 * Scans the Nest app's sources for what belongs in `libs/persistence`: SQL text, `$1`-style
 * placeholders, the `Database` of @board/persistence, and `pg` / `typeorm` imports. Parsed with
 * the TypeScript compiler (no type check), so comments and identifiers never count, only string
 * and template literals and module specifiers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * `adapter`: a file other than a Nest module's wiring (`*.module.ts`) names an adapter (a `Pg*`
 * class of @board/persistence, anything of @board/platform) instead of the port it implements.
 */
export type BreachKind = 'sql' | 'placeholder' | 'database' | 'driver' | 'adapter';

export interface Breach {
  file: string;
  line: number;
  kind: BreachKind;
  text: string;
}

/**
 * Statements as the code writes them: upper-case keywords (English sentences of the contract,
 * "Select one…", never match). A fragment counts as much as a whole statement.
 */
const SQL = [
  /\bSELECT\s+(?:DISTINCT\s+)?[\w*("']/,
  /\bINSERT\s+INTO\b/,
  /\bUPDATE\s+[\w."]+\s+(?:AS\s+\w+\s+)?SET\b/,
  /\bDELETE\s+FROM\b/,
  /\bWITH\s+(?:RECURSIVE\s+)?\w+(?:\s*\([\w\s,]*\))?\s+AS\s*(?:(?:NOT\s+)?MATERIALIZED\s*)?\(/,
  /\b(?:FROM|JOIN)\s+[a-z_]+\s+(?:\w+\s+)?(?:WHERE|ON|USING)\b/,
  /\bON\s+CONFLICT\b/,
  /\bRETURNING\s+[\w*]/,
];
const PLACEHOLDER = /\$\d+\b/;
const DRIVERS = /^(?:pg|pg-[\w-]+|typeorm)(?:\/.*)?$/;

/** Every .ts file under `dir`, relative to `root`, in a stable order. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out;
}

/** The literal text of a string or template (template holes read as a space). */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}

/**
 * The names a dynamic import or require binds: `const { a, b } = await import('…')` binds a and b;
 * anything else (the whole module object) counts as reaching Database.
 */
function boundNames(call: ts.CallExpression): string[] {
  const parent = ts.isAwaitExpression(call.parent) ? call.parent.parent : call.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
    return parent.name.elements.map((e) => {
      const key = e.propertyName ?? e.name;
      return ts.isIdentifier(key) ? key.text : 'Database';
    });
  }
  return ['Database'];
}

/** What `file`'s text breaches. `bootstrap`: may import `pg` / `typeorm` (still no SQL, no Database). */
export function scanSource(file: string, text: string, bootstrap = false): Breach[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const breaches: Breach[] = [];
  const wiring = file.endsWith('.module.ts');
  const add = (node: ts.Node, kind: BreachKind, what: string) =>
    breaches.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, kind, text: what.slice(0, 80) });
  const moduleUse = (node: ts.Node, specifier: string, names: string[]) => {
    if (DRIVERS.test(specifier) && !bootstrap) add(node, 'driver', specifier);
    if (specifier === '@board/persistence' && names.includes('Database')) add(node, 'database', 'Database');
    if (!wiring && ((specifier === '@board/persistence' && names.some((n) => /^Pg[A-Z]/.test(n))) || specifier === '@board/platform')) {
      add(node, 'adapter', `${names.join(', ')} from ${specifier}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
      // A namespace import (`* as p`) reaches everything, Database included.
      if (bindings && ts.isNamespaceImport(bindings)) names.push('Database');
      moduleUse(node, node.moduleSpecifier.text, names);
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text) : ['Database'];
      moduleUse(node, node.moduleSpecifier.text, names);
      return;
    }
    if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (dynamic) moduleUse(node, node.arguments[0].text, boundNames(node));
    }
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      moduleUse(node, node.moduleReference.expression.text, ['Database']);
    }
    const literal = literalText(node);
    if (literal !== null) {
      if (SQL.some((re) => re.test(literal))) add(node, 'sql', literal.replace(/\s+/g, ' ').trim());
      else if (PLACEHOLDER.test(literal)) add(node, 'placeholder', literal.replace(/\s+/g, ' ').trim());
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return breaches;
}

/** Every breach under `dir` (relative to `root`). */
export function scanTree(root: string, dir: string, bootstrap: readonly string[]): Breach[] {
  return sourceFiles(root, dir).flatMap((file) => scanSource(file, readFileSync(join(root, file), 'utf8'), bootstrap.includes(file)));
}

/** Every string and template literal of `text` with its line (template holes read as a space). */
export function stringLiterals(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== null) out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: literal });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A hand-numbered placeholder (`$1`) in a literal. */
export const hasPlaceholder = (literal: string): boolean => PLACEHOLDER.test(literal);
