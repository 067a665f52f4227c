/**
 * Retry delays: exponential with jitter, from an injected random source so tests (and two runs
 * with one seed) see the same delays. Equal jitter: half the exponential step fixed, half random,
 * so a retry never comes at once and many bots do not retry in lockstep.
 */

/** A source of numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: small, fast, good enough to spread retries; not for anything secret. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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
