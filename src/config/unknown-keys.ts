/**
 * Unknown `BOT_*` variables: the environment schema ignores variables it does not know (the
 * environment holds PATH and friends), so a misspelt `BOT_HTTP_PROT=9464` would silently leave
 * the default in force. Keys with the product's own prefix are checked against the known ones
 * and reported as warnings (start-up goes on), with the nearest known key when it is close.
 * Only key names are ever reported, never values (a value may be a secret).
 */
import type { ConfigWarning } from './safety.js';

/** Edit distance with adjacent transpositions (optimal string alignment): `PROT` → `PORT` is 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array.from({ length: b.length }, (_, j) => (i === 0 ? j + 1 : 0))]);
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (rows[i - 2] as number[])[j - 2] as number + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** Close enough to be a typo: at most 2 edits, and at most a third of the key's length. */
function isClose(distance: number, key: string): boolean {
  return distance <= 2 && distance * 3 <= key.length;
}

/** The known key nearest to `key` when it is close, else null (a far guess misleads more than it helps). */
export function nearestKey(key: string, known: readonly string[]): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const k of known) {
    const distance = editDistance(key, k);
    if (best === null || distance < best.distance) best = { key: k, distance };
  }
  return best !== null && isClose(best.distance, key) ? best.key : null;
}

const PREFIX = 'BOT_';

/**
 * One warning per unknown `BOT_*` key, naming where it was found (`envFile` or the environment).
 * A key in both places is reported once, for the environment (which wins).
 */
export function unknownKeyWarnings(
  fileKeys: readonly string[],
  envKeys: readonly string[],
  known: readonly string[],
  envFile: string | null,
): ConfigWarning[] {
  const knownSet = new Set(known);
  const sources = new Map<string, string>();
  for (const k of fileKeys) if (envFile !== null) sources.set(k, `env file ${envFile}`);
  for (const k of envKeys) sources.set(k, 'the environment');
  const out: ConfigWarning[] = [];
  for (const [key, source] of [...sources].sort(([a], [b]) => a.localeCompare(b))) {
    if (!key.startsWith(PREFIX) || knownSet.has(key)) continue;
    const near = nearestKey(key, known);
    const hint = near === null ? 'not a setting of this bot; it is ignored' : `ignored; did you mean ${near}?`;
    out.push({ code: 'UNKNOWN_ENV_KEY', subject: key, message: `unknown key ${key} in ${source}: ${hint}` });
  }
  return out;
}
