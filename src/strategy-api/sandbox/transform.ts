/**
 * Turns a strategy module (ESM, `.ts` from source or `.js` from the build) into a program the
 * sandbox can evaluate: `(function (__api, __exports) { ... })`. This only parses text (in a
 * short-lived worker, compile-entry.ts); nothing of the module runs here.
 *
 * Imports are checked before anything runs: the one allowed specifier is the author API
 * (`…/src/strategy-api/index.js`, or `.ts` from source), bound to the endowed API object;
 * any other import (a Node builtin, a relative file, a package) refuses the module. Type-only
 * imports are erased by the TypeScript pass. A `.js` file keeps its lines (imports and exports
 * are rewritten in place), so a stack frame names the line of the file on disk.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type ts from 'typescript';

/**
 * TypeScript, loaded on first use: the daemon compiles modules in a short-lived worker
 * (compile-entry.ts), so the compiler (~75 MB) never stays in the daemon's own thread.
 */
let tsModule: typeof ts | undefined;
function typescript(): typeof ts {
  tsModule ??= createRequire(import.meta.url)('typescript') as typeof ts;
  return tsModule;
}

export type Compiled = { ok: true; program: string } | { ok: false; kind: 'syntax' | 'import'; message: string };

/** The author API as a specifier resolves: `src/strategy-api/index.js` (or `.ts`), wherever the tree is. */
const API_TAIL = /(^|\/)src\/strategy-api\/index\.(js|ts)$/;

export function isAuthorApi(specifier: string, file: string): boolean {
  if (specifier.startsWith('file://')) return API_TAIL.test(new URL(specifier).pathname);
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return false;
  return API_TAIL.test(path.resolve(path.dirname(file), specifier).split(path.sep).join('/'));
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `text` padded with the newlines of the replaced span, so the lines after it do not move. */
function keepLines(source: string, e: Edit): Edit {
  const newlines = source.slice(e.start, e.end).split('\n').length - 1;
  return { ...e, text: e.text + '\n'.repeat(newlines) };
}

function importEdit(s: ts.ImportDeclaration, sf: ts.SourceFile): Edit | string {
  const ts = typescript();
  const spec = (s.moduleSpecifier as ts.StringLiteral).text;
  if (!isAuthorApi(spec, sf.fileName)) return `imports ${JSON.stringify(spec)}: a strategy imports only src/strategy-api/index.js`;
  const clause = s.importClause;
  const at = { start: s.getStart(sf), end: s.getEnd() };
  if (clause === undefined || clause.isTypeOnly) return { ...at, text: '' };
  if (clause.name !== undefined) return `imports a default from ${JSON.stringify(spec)}, which has none`;
  const bindings = clause.namedBindings;
  if (bindings === undefined) return { ...at, text: '' };
  if (ts.isNamespaceImport(bindings)) return { ...at, text: `const ${bindings.name.text} = __api;` };
  const names = bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName === undefined ? e.name.text : `${e.propertyName.getText(sf)}: ${e.name.text}`));
  return { ...at, text: names.length === 0 ? '' : `const { ${names.join(', ')} } = __api;` };
}

function hasModifier(s: ts.Statement, kind: ts.SyntaxKind): boolean {
  const ts = typescript();
  return ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === kind);
}

/** `export` dropped (named exports stay local), `export default` assigned to `__exports.default`. */
function exportEdits(s: ts.Statement, sf: ts.SourceFile): Edit[] | string {
  const ts = typescript();
  if (ts.isExportAssignment(s)) return [{ start: s.getStart(sf), end: s.expression.getStart(sf), text: '__exports.default = ' }];
  if (ts.isExportDeclaration(s)) {
    if (s.moduleSpecifier !== undefined) return `re-exports from ${s.moduleSpecifier.getText(sf)}: a strategy imports only src/strategy-api/index.js`;
    return [{ start: s.getStart(sf), end: s.getEnd(), text: '' }];
  }
  if (!hasModifier(s, ts.SyntaxKind.ExportKeyword)) return [];
  const mods = ts.getModifiers(s as ts.HasModifiers) ?? [];
  const exp = mods.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const def = mods.find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  if (exp === undefined) return [];
  if (def === undefined) return [{ start: exp.getStart(sf), end: exp.getEnd(), text: '' }];
  return [
    { start: exp.getStart(sf), end: def.getEnd(), text: '__exports.default =' },
    { start: s.getEnd(), end: s.getEnd(), text: ';' },
  ];
}

function rewrite(source: string, file: string): Compiled {
  const ts = typescript();
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const edits: Edit[] = [];
  for (const s of sf.statements) {
    const e = ts.isImportDeclaration(s) ? importEdit(s, sf) : exportEdits(s, sf);
    if (typeof e === 'string') return { ok: false, kind: 'import', message: `${file}:${sf.getLineAndCharacterOfPosition(s.getStart(sf)).line + 1}: ${e}` };
    edits.push(...(Array.isArray(e) ? e : [e]));
  }
  let out = source;
  for (const e of edits.map((x) => keepLines(source, x)).sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  // One line of wrapper before the module's first line, so its line numbers stay as on disk.
  return { ok: true, program: `(function (__api, __exports) { 'use strict'; ${out}\n})` };
}

/** The first syntax error as `file:line: message`, or null. */
function syntaxError(source: string, file: string): string | null {
  const ts = typescript();
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, allowJs: true };
  const out = ts.transpileModule(source, { fileName: file, reportDiagnostics: true, compilerOptions });
  const d = out.diagnostics?.find((x) => x.category === ts.DiagnosticCategory.Error);
  if (d === undefined) return null;
  const line = d.file !== undefined && d.start !== undefined ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
  return `${file}${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

/** Types erased (TypeScript's own transpiler: type-only imports go with them). */
function stripTypes(source: string, file: string): string {
  const ts = typescript();
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false, isolatedModules: true };
  return ts.transpileModule(source, { fileName: file, compilerOptions }).outputText.replace(/\n\/\/# sourceMappingURL=.*$/, '');
}

const cache = new Map<string, Compiled>();

/** The module at `file` as a sandbox program, or why it is refused. Cached per file version. */
export function compileStrategy(file: string): Compiled {
  const st = statSync(file);
  const key = `${file}\0${st.mtimeMs}\0${st.size}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const source = readFileSync(file, 'utf8');
  const bad = syntaxError(source, file);
  const out: Compiled = bad !== null ? { ok: false, kind: 'syntax', message: bad } : rewrite(file.endsWith('.ts') ? stripTypes(source, file) : source, file);
  cache.set(key, out);
  return out;
}
