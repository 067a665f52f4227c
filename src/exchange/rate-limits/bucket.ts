/**
 * A venue pool (at most `limit` requests in any sliding window of `windowMs`) translated into
 * Bottleneck's token bucket: `reservoir` starts at the capacity C, `reservoirIncreaseAmount` A
 * tokens come back every `reservoirIncreaseInterval` I, and `reservoirIncreaseMaximum` caps the
 * bucket at C.
 *
 * The bound. Tokens come back on a fixed grid of period I (Bottleneck's Redis scripts count whole
 * intervals since a grid point; a local bucket is refilled the same way by grid-refill.ts), so
 * any window of length W holds at most `steps = ceil(W / I)` grid points. A window therefore
 * starts with at most C tokens and gains at most A × steps: C + A × steps ≤ budget is the whole
 * proof, whatever the arrival pattern. A naive `reservoirRefreshInterval` (refill to B every W)
 * fails it: B just before a refresh and B just after fit in one sliding window.
 *
 * The split. The burst is paid for out of the sustained rate (they share one budget), so C is
 * kept at one increase's worth (≥ A, or increases would be clipped at the cap). With 40-80
 * increases a window the declared pools get a burst of 1.3-2.1 % of the budget and a sustained
 * rate of 97.5-98.6 % of it, 78-79 % of the venue limit at the default 0.8 margin. A larger
 * burst would only help a caller that idles and then fires many requests at once; the bot's
 * load is steady polling plus small order batches, and each point of burst is a point of
 * sustained rate lost in every window.
 */
import type { PoolSpec } from './pools.js';

/** Bottleneck settings of one pool and the figures they guarantee. */
export interface BucketPlan {
  /** The budget this client allows itself per window: floor(limit × safetyMargin). */
  budget: number;
  /** Bucket size C: `reservoirIncreaseMaximum` (and the starting reservoir of a local bucket). */
  capacity: number;
  /** Tokens added per increase, A. */
  increaseAmount: number;
  /** `reservoirIncreaseInterval` I, ms. */
  increaseIntervalMs: number;
  /** Bottleneck's `heartbeatInterval` (Redis mode: it applies increases and wakes waiting jobs), ms: I. */
  heartbeatMs: number;
  /** Most increases one window can see: ceil(W / I). */
  steps: number;
  /** C + A × steps: the most any window can be granted (≤ budget − slack). */
  windowBound: number;
}

export interface PlanOptions {
  /** Tokens kept out of the bucket's bound (strict nonces: one job may wait between grant and send). */
  slack: number;
  /** Smallest bucket: the heaviest job must fit (bulk weight). */
  minCapacity: number;
}

/** Shortest increase interval considered: shorter ones wake every limiter (and Redis) too often. */
const MIN_INTERVAL_MS = 100;
/** Most increases per window considered. */
const MAX_STEPS = 200;

interface Candidate {
  intervalMs: number;
  steps: number;
  amount: number;
  /** Expected tokens per window. */
  score: number;
}

/** Throws RangeError when the pool cannot be expressed (budget below two tokens, bad numbers). */
export function planBucket(spec: PoolSpec, options: PlanOptions): BucketPlan {
  const { limit, windowMs, safetyMargin } = spec;
  if (!(limit >= 1) || !(windowMs >= 1) || !(safetyMargin > 0 && safetyMargin <= 1)) {
    throw new RangeError('bad limit/window/margin');
  }
  const budget = Math.floor(limit * safetyMargin);
  const usable = budget - options.slack;
  // A token bucket needs one token of burst and one of increase: below two, no window is safe.
  if (usable < Math.max(2, options.minCapacity + 1)) throw new RangeError(`budget ${budget} per window is too small for a token bucket`);
  const best = bestCandidate(windowMs, usable, options);
  const capacity = usable - best.amount * best.steps;
  return {
    budget,
    capacity,
    increaseAmount: best.amount,
    increaseIntervalMs: best.intervalMs,
    heartbeatMs: best.intervalMs,
    steps: best.steps,
    windowBound: capacity + best.amount * best.steps,
  };
}

/**
 * Highest expected rate; among candidates within 0.5 % of it, the longest interval (fewer
 * heartbeats, and in Redis mode fewer round trips, for a rate difference nobody can use).
 * Intervals just above W / s make s increases the most a window can see, with A × (s + 1) close
 * to the budget; both roundings of W / s are tried.
 */
function bestCandidate(windowMs: number, usable: number, options: PlanOptions): Candidate {
  const all: Candidate[] = [];
  // Windows shorter than the minimum interval get one increase per window.
  const maxSteps = Math.max(1, Math.min(MAX_STEPS, Math.floor(windowMs / MIN_INTERVAL_MS)));
  for (let s = 1; s <= maxSteps; s++) {
    for (const intervalMs of [Math.floor(windowMs / s), Math.ceil(windowMs / s)]) {
      const c = candidate(intervalMs, windowMs, usable, options);
      if (c !== undefined) all.push(c);
    }
  }
  const top = Math.max(...all.map((c) => c.score));
  const best = all.filter((c) => c.score >= top * 0.995).sort((a, b) => b.intervalMs - a.intervalMs)[0];
  if (best === undefined) throw new RangeError('no token bucket fits this pool');
  return best;
}

function candidate(intervalMs: number, windowMs: number, usable: number, options: PlanOptions): Candidate | undefined {
  const steps = Math.ceil(windowMs / intervalMs);
  // C ≥ A (an increase into a full bucket is clipped) and C ≥ the heaviest job.
  const amount = Math.min(Math.floor(usable / (steps + 1)), Math.floor((usable - options.minCapacity) / steps));
  if (amount < 1) return undefined;
  return { intervalMs, steps, amount, score: (amount * windowMs) / intervalMs };
}
