/**
 * `npm ci --omit=dev` then `npx pm2 start ecosystem.config.cjs` must work (docs/operations.md,
 * Production install). A real production install takes minutes (better-sqlite3 may compile), so it is a
 * documented manual check; this test checks what makes it work, cheaply:
 * - every package the build's output (`dist/`) imports at runtime is in `dependencies`;
 * - the build (`prepare`) and the process manager need only `dependencies` too: typescript, the
 *   @types the compiler reads (tsconfig `types`, typed imports) and pm2;
 * - package-lock.json agrees: no package reachable from `dependencies` is marked `"dev": true`
 *   (npm ci --omit=dev would leave it out).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/daemon-process.js';

interface Pkg {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface LockEntry {
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Pkg;
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** Reached only when running from source under tsx (src/strategy-api/sandbox/entry-path.ts checks `.ts`). */
const SOURCE_ONLY = new Set(['tsx']);

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

/**
 * Module specifiers in emitted ESM: `import … from`/`export … from` statements, bare `import '…'`,
 * `import('…')` and `require.resolve('…')` (a `createRequire(…)`'s too, never `Promise.resolve('…')`). Anchored to statements so a string such as
 * `'--from', …` in the code is not taken for an import.
 */
const SPECIFIER =
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|(?:\brequire|\bimport\.meta|\))\.resolve\(\s*['"]([^'"]+)['"]\s*\)/gm;

function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('file:')) return null;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
  return builtinModules.includes(name) ? null : name;
}

function importedPackages(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of [...jsFiles(path.join(ROOT, 'dist/src')), ...jsFiles(path.join(ROOT, 'dist/strategies'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const name = packageOf((m[1] ?? m[2] ?? m[3] ?? m[4]) as string);
      if (name !== null && !out.has(name)) out.set(name, path.relative(ROOT, file));
    }
  }
  return out;
}

/** Resolves a dependency from a lock path the way Node does: nearest node_modules upwards. */
function resolveIn(from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (base === '') return null;
    const i = base.lastIndexOf('/node_modules/');
    base = i >= 0 ? base.slice(0, i) : '';
  }
}

function requiredDeps(e: LockEntry): string[] {
  const peers = Object.keys(e.peerDependencies ?? {}).filter((n) => e.peerDependenciesMeta?.[n]?.optional !== true);
  return [...Object.keys(e.dependencies ?? {}), ...Object.keys(e.optionalDependencies ?? {}), ...peers];
}

describe('production dependency set', () => {
  it('has every package dist/ imports at runtime in dependencies', () => {
    const imported = importedPackages();
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported].filter(([name]) => !SOURCE_ONLY.has(name) && pkg.dependencies[name] === undefined);
    expect(missing).toEqual([]);
  });

  it('builds and runs under pm2 with dependencies only', () => {
    expect(pkg.scripts['prepare']).toBe('npm run build --silent');
    expect(pkg.scripts['build']).toMatch(/^tsc /);
    const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { types: string[] } };
    const typed = importedPackages();
    const needed = ['typescript', 'pm2', ...tsconfig.compilerOptions.types.map((t) => `@types/${t}`)];
    // Packages without their own types are typed by @types/<name>, which the compiler then needs.
    for (const name of typed.keys()) if (pkg.devDependencies[`@types/${name}`] !== undefined || pkg.dependencies[`@types/${name}`] !== undefined) needed.push(`@types/${name}`);
    expect(needed.filter((n) => pkg.dependencies[n] === undefined)).toEqual([]);
  });

  it('package-lock.json marks nothing reachable from dependencies as dev-only', () => {
    const seen = new Set<string>();
    const stack = Object.keys(pkg.dependencies).map((n) => resolveIn('', n));
    while (stack.length > 0) {
      const at = stack.pop();
      if (at === null || at === undefined || seen.has(at)) continue;
      seen.add(at);
      for (const dep of requiredDeps(lock.packages[at] as LockEntry)) stack.push(resolveIn(at, dep));
    }
    expect(seen.has('node_modules/pm2')).toBe(true);
    expect([...seen].filter((p) => lock.packages[p]?.dev === true)).toEqual([]);
  });
});
