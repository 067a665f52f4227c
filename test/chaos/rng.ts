/** The scenario's own seeded stream (mulberry32): the same seed gives the same price plan and faults. */
import { seededRandom, type Random } from '../../src/core/random.js';

export type Rng = Random;

export const seededRng = seededRandom;

/** A uniform integer in [lo, hi]. */
export function between(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}
