/**
 * The ways a page drifts from the code, each reported as `file:line: what (nearest: x)`: a
 * path that does not exist, a `Name.member` the sources do not declare, a local link or anchor
 * that leads nowhere, an `npm run` script package.json does not have, and an issue number the
 * repository cannot explain (it has no tracker; an upstream `owner/repo issue N` or
 * `Project issue N` is a reference a reader can follow).
 */
import { dirname, posix } from 'node:path';
import { headingSlugs, scanMarkdown, type Located, type ScannedPage } from './markdown.js';
import { nearest, type Repo } from './repo.js';

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Fences whose paths are commands a reader runs (code samples name files to create). */
const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'console', 'text']);
// A repo path: not part of a longer path or word, optionally under dist/.
const PATH_RE = /(?<![\w./@-])(?:dist\/)?(?:src|test|strategies|config|samples|docs)\/[\w./*@-]*/g;
// A source file named from inside src/ (`engine/order-state.ts`), as architecture.md does.
const SHORT_RE = /(?<![\w./@-])(?:core|exchange|simulator|store|engine|strategy-api|observability|console|web|notify|daemon|backtest|cli)\/[\w./-]*\.[jt]s\b/g;
const PLACEHOLDER_RE = /[<>{}…]|\.\.\./;
const MEMBER_RE = /^([A-Z][\w$]*)\.(#?[A-Za-z_$][\w$]*)(?:\(.*\))?$/;
/** `README.md`, `Foo.test.ts`: file names, not members. */
const FILE_EXT_RE = /^(md|ts|js|cjs|mjs|json|csv|html|css|sqlite|env|png|txt|yml|yaml|sh|lock)$/;
const NPM_RE = /\bnpm (?:run(?:-script)? ([\w:.-]+)|(test|start)\b)/g;
// `issue 9` alone; `SGrondin/bottleneck issue 185` or `Freqtrade issue 619` name their tracker.
const ISSUE_RE = /(?<!(?:[\w.-]+\/[\w.-]+|\b[A-Z][\w.-]*) )\b[Ii]ssues? #?\d+/g;

export function checkPage(repo: Repo, file: string, text: string): Problem[] {
  const page = scanMarkdown(text);
  const problems: Problem[] = [];
  const report = (line: number, message: string): void => {
    problems.push({ file, line, message });
  };
  checkPaths(repo, page, report);
  checkMembers(repo, page, report);
  checkLinks(repo, file, page, report);
  checkCommands(repo, page, report);
  checkIssueNumbers(page, report);
  return problems;
}

type Report = (line: number, message: string) => void;

/** Prose (link targets left to the link check) and the lines of shell fences. */
function pathLines(page: ScannedPage): Located[] {
  const prose = page.prose.map((p) => ({ line: p.line, text: p.text.replace(/\]\([^)]*\)/g, ']') }));
  return [...prose, ...page.fences.filter((f) => SHELL_LANGS.has(f.lang)).flatMap((f) => f.lines)];
}

/** Every repo path a line names (trailing punctuation dropped, placeholders skipped). */
export function pathsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SHORT_RE)) found.push(`src/${m[0]}`);
  for (const m of text.matchAll(PATH_RE)) {
    const path = m[0].replace(/[.,:;]+$/, '');
    const next = text[m.index + m[0].length] ?? '';
    if (PLACEHOLDER_RE.test(path) || next === '<' || next === '{') continue;
    found.push(path);
  }
  return found;
}

function checkPaths(repo: Repo, page: ScannedPage, report: Report): void {
  for (const { line, text } of pathLines(page)) {
    for (const path of pathsIn(text)) {
      if (pathExists(repo, path)) continue;
      const hint = nearest(path.replace(/^dist\//, '').replace(/\/$/, ''), [...repo.files, ...repo.dirs]);
      report(line, `path ${path} does not exist${hint === undefined ? '' : ` (nearest: ${hint})`}`);
    }
  }
}

export function pathExists(repo: Repo, path: string): boolean {
  const bare = path.replace(/^dist\//, '').replace(/\/$/, '');
  if (bare.includes('*')) return globMatches(repo, bare);
  const forms = [bare, bare.replace(/\.js$/, '.ts'), bare.replace(/\.d\.ts$/, '.ts'), bare.replace(/\.js\.map$/, '.ts')];
  // dist/ holds only built JavaScript of a TypeScript source.
  if (path.startsWith('dist/')) return bare === '' || repo.dirs.has(bare) || forms.slice(1).some((f) => f !== bare && repo.files.has(f));
  return forms.some((f) => repo.files.has(f) || repo.dirs.has(f));
}

// Glob parts: two stars and a slash are any folder depth (none included), two stars anything
// below, one star one name.
const GLOB_PARTS: Record<string, string> = { '**/': '(?:.*/)?', '**': '.*', '*': '[^/]*' };

function globMatches(repo: Repo, glob: string): boolean {
  const source = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/|\*\*|\*/g, (m) => GLOB_PARTS[m] ?? '[^/]*');
  const re = new RegExp(`^${source}$`);
  return [...repo.files, ...repo.dirs].some((f) => re.test(f));
}

function checkMembers(repo: Repo, page: ScannedPage, report: Report): void {
  const spansByLine = new Map<number, string[]>();
  for (const span of page.spans) spansByLine.set(span.line, [...(spansByLine.get(span.line) ?? []), span.text]);
  for (const prose of page.prose) {
    const spans = spansByLine.get(prose.line) ?? [];
    const nearby = pathsIn(prose.text).map((p) => p.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
    for (const path of nearby) repo.indexFile(path);
    for (const span of spans) {
      const problem = memberProblem(repo, span, nearby);
      if (problem !== undefined) report(prose.line, problem);
    }
  }
}

/** Why `Name.member` is wrong, or undefined when a declaration of Name has that member. */
export function memberProblem(repo: Repo, span: string, nearbyFiles: readonly string[]): string | undefined {
  const m = MEMBER_RE.exec(span);
  if (m === null || FILE_EXT_RE.test(m[2]!)) return undefined;
  const [name, member] = [m[1]!, m[2]!];
  if (!repo.symbols.has(name)) {
    const builtin = (globalThis as Record<string, unknown>)[name];
    if (builtin !== undefined && builtin !== null) return member in (builtin as object) ? undefined : `\`${span}\`: the built-in ${name} has no member ${member}`;
    // A market or config key (`BTC_PERP.maxPositionBase`), not a declaration.
    if (/^[A-Z0-9_]+$/.test(name)) return undefined;
    const hint = nearest(name, repo.symbols.names());
    return `\`${span}\`: no class, interface or object ${name} is declared in src/ or strategies/${hint === undefined ? '' : ` (nearest: ${hint})`}`;
  }
  const file = nearbyFiles.find((f) => repo.symbols.declarations(name, f).some((d) => d.file === f));
  const { members, open } = repo.symbols.membersOf(name, file);
  if (members.has(member) || open) return undefined;
  const where = [...new Set(repo.symbols.declarations(name, file).map((d) => d.file))].join(', ');
  const hint = nearest(member, members);
  return `\`${span}\`: ${name} (${where}) has no member ${member}${hint === undefined ? '' : ` (nearest: ${name}.${hint})`}`;
}

function checkLinks(repo: Repo, file: string, page: ScannedPage, report: Report): void {
  const own = headingSlugs(page.headings.map((h) => h.text));
  for (const { line, target } of page.links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const problem = linkProblem(repo, file, target, own);
    if (problem !== undefined) report(line, problem);
  }
}

/** Why a local link is broken, or undefined. Paths are relative to the page's folder. */
export function linkProblem(repo: Repo, file: string, target: string, ownAnchors: Set<string>): string | undefined {
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (pathPart === '') return anchor === undefined || ownAnchors.has(anchor) ? undefined : anchorProblem(target, file, anchor, ownAnchors);
  const resolved = posix.normalize(posix.join(dirname(file), pathPart)).replace(/\/$/, '');
  if (!repo.files.has(resolved) && !repo.dirs.has(resolved)) {
    const hint = nearest(resolved, [...repo.files, ...repo.dirs]);
    return `link (${target}) leads to ${resolved}, which does not exist${hint === undefined ? '' : ` (nearest: ${hint})`}`;
  }
  if (anchor === undefined || anchor === '' || !resolved.endsWith('.md')) return undefined;
  const anchors = repo.anchorsOf(resolved);
  return anchors.has(anchor) ? undefined : anchorProblem(target, resolved, anchor, anchors);
}

function anchorProblem(target: string, page: string, anchor: string, anchors: Set<string>): string {
  const hint = nearest(anchor, anchors);
  return `link (${target}): ${page} has no heading with anchor #${anchor}${hint === undefined ? '' : ` (nearest: #${hint})`}`;
}

function checkCommands(repo: Repo, page: ScannedPage, report: Report): void {
  const lines = [...page.prose.map((p) => ({ line: p.line, text: p.text })), ...page.fences.flatMap((f) => f.lines)];
  for (const { line, text } of lines) {
    for (const m of text.matchAll(NPM_RE)) {
      const script = m[1] ?? m[2]!;
      if (repo.scripts.has(script)) continue;
      const hint = nearest(script, repo.scripts);
      report(line, `\`npm ${m[1] === undefined ? '' : 'run '}${script}\`: package.json has no script ${script}${hint === undefined ? '' : ` (nearest: ${hint})`}`);
    }
  }
}

function checkIssueNumbers(page: ScannedPage, report: Report): void {
  for (const { line, text } of page.prose) {
    // Quoted in code (`issue 9`), it is an example, not a reference.
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(ISSUE_RE)) {
      report(line, `"${m[0]}": nothing in the repository explains this number; say what was found and fixed instead`);
    }
  }
}
