/**
 * A map's entries as they were read, to tell later whether the map still holds exactly them:
 * the in-process venue's reads (in-process-reads.ts) and the report's equity sample (equity.ts)
 * keep an answer while the simulator's account maps hold the very same decimals (each change
 * stores a new one).
 */
import type { Decimal } from '../core/decimal.js';

/** Map entries in order, each amount the very decimal the map held. */
export type Entries = readonly (readonly [string, Decimal])[];

/** The same keys in the same order, each holding the very same (immutable) decimal. */
export function sameEntries(kept: Entries, now: ReadonlyMap<string, Decimal>): boolean {
  if (kept.length !== now.size) return false;
  let i = 0;
  for (const [asset, amount] of now) {
    const k = kept[i++] as readonly [string, Decimal];
    if (k[0] !== asset || k[1] !== amount) return false;
  }
  return true;
}
