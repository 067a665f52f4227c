/**
 * The classes, interfaces, object constants, type literals and enums of the sources, with their
 * members, read with the TypeScript compiler's parser (exact where a regex would guess): what a
 * page's `Name.member` must match.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export interface Declared {
  file: string;
  members: Set<string>;
  /** Names this one extends or implements (their members count too). */
  heritage: string[];
}

export class SymbolIndex {
  private readonly byName = new Map<string, Declared[]>();
  private readonly parsed = new Set<string>();

  /** Parses each file once (absolute path in, repo-relative name kept for messages). */
  add(absPath: string, relPath: string): void {
    if (this.parsed.has(relPath)) return;
    this.parsed.add(relPath);
    const source = ts.createSourceFile(absPath, readFileSync(absPath, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      const found = declarationOf(node);
      if (found !== undefined) this.record(found.name, { file: relPath, members: found.members, heritage: found.heritage });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Declarations of `name`, only those in `file` when it declares one. */
  declarations(name: string, file?: string): Declared[] {
    const all = this.byName.get(name) ?? [];
    const local = all.filter((d) => d.file === file);
    return local.length > 0 ? local : all;
  }

  /**
   * Members of `name` and of what it extends; `open` when some ancestor is not declared in the
   * indexed files (a library class), so an unknown member cannot be called wrong.
   */
  membersOf(name: string, file?: string): { members: Set<string>; open: boolean } {
    const members = new Set<string>();
    let open = false;
    const seen = new Set<string>();
    const walk = (n: string, f: string | undefined): void => {
      if (seen.has(n)) return;
      seen.add(n);
      const decls = this.declarations(n, f);
      if (decls.length === 0) open = true;
      for (const d of decls) {
        for (const m of d.members) members.add(m);
        for (const h of d.heritage) walk(h, undefined);
      }
    };
    walk(name, file);
    return { members, open };
  }

  private record(name: string, declared: Declared): void {
    const list = this.byName.get(name) ?? [];
    list.push(declared);
    this.byName.set(name, list);
  }
}

interface Found {
  name: string;
  members: Set<string>;
  heritage: string[];
}

function declarationOf(node: ts.Node): Found | undefined {
  if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name !== undefined) {
    return { name: node.name.text, members: memberNames(node.members), heritage: heritageOf(node.heritageClauses) };
  }
  if (ts.isEnumDeclaration(node)) return { name: node.name.text, members: memberNames(node.members), heritage: [] };
  if (ts.isTypeAliasDeclaration(node)) return typeAlias(node);
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
    return variable(node.name.text, node.initializer);
  }
  return undefined;
}

function typeAlias(node: ts.TypeAliasDeclaration): Found | undefined {
  const parts = ts.isIntersectionTypeNode(node.type) ? node.type.types : [node.type];
  const members = new Set<string>();
  const heritage: string[] = [];
  for (const part of parts) {
    if (ts.isTypeLiteralNode(part)) for (const m of memberNames(part.members)) members.add(m);
    else if (ts.isTypeReferenceNode(part)) heritage.push(part.typeName.getText(part.getSourceFile()));
    else return undefined;
  }
  return { name: node.name.text, members, heritage };
}

function variable(name: string, init: ts.Expression): Found | undefined {
  const inner = unwrap(init);
  if (ts.isObjectLiteralExpression(inner)) return { name, members: memberNames(inner.properties), heritage: [] };
  if (ts.isClassExpression(inner)) return { name, members: memberNames(inner.members), heritage: heritageOf(inner.heritageClauses) };
  return undefined;
}

/** `{...} as const`, `{...} satisfies T`, `({...})`, `Object.freeze({...})`. */
function unwrap(expr: ts.Expression): ts.Expression {
  if (ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isParenthesizedExpression(expr)) return unwrap(expr.expression);
  if (ts.isCallExpression(expr) && expr.arguments.length === 1 && expr.expression.getText(expr.getSourceFile()) === 'Object.freeze') {
    return unwrap(expr.arguments[0]!);
  }
  return expr;
}

function memberNames(members: ts.NodeArray<ts.Node>): Set<string> {
  const names = new Set<string>();
  for (const member of members) {
    if (ts.isConstructorDeclaration(member)) {
      for (const param of member.parameters) {
        const isProperty = (ts.getModifiers(param)?.length ?? 0) > 0;
        if (isProperty && ts.isIdentifier(param.name)) names.add(param.name.text);
      }
      continue;
    }
    const name = (member as { name?: ts.PropertyName }).name;
    if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))) names.add(name.text);
  }
  return names;
}

function heritageOf(clauses: ts.NodeArray<ts.HeritageClause> | undefined): string[] {
  const names: string[] = [];
  for (const clause of clauses ?? []) {
    for (const type of clause.types) {
      const expr = type.expression;
      names.push(ts.isIdentifier(expr) ? expr.text : expr.getText(expr.getSourceFile()));
    }
  }
  return names;
}
