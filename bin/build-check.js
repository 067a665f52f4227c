/**
 * Is `dist/` current? A stat walk, no build and no TypeScript: every `.ts` under `src/` and
 * `strategies/` needs its built `.js`, no older than the source. `npm run build` writes
 * `dist/.build-stamp` after a successful compile: an incremental compile does not rewrite a `.js`
 * whose source was only touched (a checkout, an editor's save without a change), and the stamp
 * says that source was looked at.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STAMP = '.build-stamp';
const SOURCE_DIRS = ['src', 'strategies'];

/** Modification time in ms, or null when the path does not exist. */
function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** Every `.ts` source (not `.d.ts`) under `dir`, as paths relative to `root`. */
function sources(root, dir, out = []) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) sources(root, rel, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/**
 * Why `dist/` cannot be used as it is, or null when it is current. The reason names one file
 * (the first found) so the operator sees what changed.
 */
export function staleReason(root) {
  const dist = path.join(root, 'dist');
  if (mtimeOf(dist) === null) return 'dist/ is missing: the TypeScript sources have not been built';
  const stamp = mtimeOf(path.join(dist, STAMP)) ?? 0;
  const all = SOURCE_DIRS.flatMap((d) => sources(root, d)).sort();
  for (const rel of all) {
    const built = mtimeOf(path.join(dist, rel.replace(/\.ts$/, '.js')));
    if (built === null) return `dist/ is out of date: ${rel} has no built file`;
    const source = mtimeOf(path.join(root, rel)) ?? 0;
    if (source > Math.max(built, stamp)) return `dist/ is out of date: ${rel} changed after the last build`;
  }
  return null;
}

/** Records a successful build (`npm run build` calls `node bin/build-check.js --stamp`). */
export function writeStamp(root) {
  writeFileSync(path.join(root, 'dist', STAMP), `${new Date().toISOString()}\n`);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === self && process.argv[2] === '--stamp') {
  writeStamp(path.resolve(path.dirname(self), '..'));
}
