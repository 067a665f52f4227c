/**
 * The repository as the drift check sees it: every file and folder (outside dependencies, build
 * output and run data), the npm scripts, the sources' symbols, and each Markdown page's headings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { headingSlugs, scanMarkdown } from './markdown.js';
import { SymbolIndex } from './symbols.js';

/** Folders that hold no documentation and nothing a page may cite. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'test-artifacts', 'backtest-out', '.pm2']);

export interface Repo {
  root: string;
  /** Repo-relative paths with '/' separators. */
  files: Set<string>;
  dirs: Set<string>;
  scripts: Set<string>;
  symbols: SymbolIndex;
  /** Anchors of a page (repo-relative path), computed once. */
  anchorsOf(page: string): Set<string>;
  /** Parses a TypeScript file into the symbol index (a file a page names beside a member). */
  indexFile(path: string): void;
}

export function loadRepo(root: string): Repo {
  const files = new Set<string>();
  const dirs = new Set<string>();
  walk(root, root, files, dirs);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const symbols = new SymbolIndex();
  for (const file of files) {
    if (/^(src|strategies)\/.*\.ts$/.test(file)) symbols.add(join(root, file), file);
  }
  const anchors = new Map<string, Set<string>>();
  return {
    root,
    files,
    dirs,
    scripts: new Set(Object.keys(pkg.scripts ?? {})),
    symbols,
    anchorsOf(page) {
      let slugs = anchors.get(page);
      if (slugs === undefined) {
        const headings = scanMarkdown(readFileSync(join(root, page), 'utf8')).headings.map((h) => h.text);
        slugs = headingSlugs(headings);
        anchors.set(page, slugs);
      }
      return slugs;
    },
    indexFile(path) {
      if (files.has(path) && path.endsWith('.ts')) symbols.add(join(root, path), path);
    },
  };
}

/** Data dirs (`data`, `data-live`, ...) hold run state, never documentation. */
function skipped(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name === 'data' || name.startsWith('data-');
}

function walk(root: string, dir: string, files: Set<string>, dirs: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    const rel = relative(root, abs).split(sep).join('/');
    if (entry.isDirectory()) {
      if (skipped(entry.name)) continue;
      dirs.add(rel);
      walk(root, abs, files, dirs);
    } else if (entry.isFile() || (entry.isSymbolicLink() && existsSync(abs) && statSync(abs).isFile())) {
      files.add(rel);
    }
  }
}

/** The Markdown pages of the repository. */
export function markdownPages(repo: Repo): string[] {
  return [...repo.files].filter((f) => f.endsWith('.md')).sort();
}

/** Levenshtein distance, for "nearest match" hints. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The candidate closest to `wanted`, or undefined when there is none. */
export function nearest(wanted: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(wanted, c);
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
