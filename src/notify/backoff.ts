/**
 * Retry delays: exponential with jitter, from an injected random source so tests (and two runs
 * with one seed) see the same delays. Equal jitter: half the exponential step fixed, half random,
 * so a retry never comes at once and many bots do not retry in lockstep.
 */

import { seededRandom, type Random } from '../core/random.js';

export { seededRandom, type Random };

export interface BackoffPolicy {
  /** Delay before the first retry (before jitter), ms. */
  baseMs: number;
  /** Largest delay, ms. */
  maxMs: number;
}

/** Delay before retry number `attempt` (1 = the first retry): in [step/2, step), step = min(max, base·2^(attempt−1)). */
export function backoffMs(attempt: number, policy: BackoffPolicy, random: Random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(step / 2 + random() * (step / 2));
}
