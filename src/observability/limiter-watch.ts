/**
 * How long each rate-limit pool has been blocked: paused after a venue 429 (or its shared bucket
 * below zero) or refusing calls (its refused counter grew since the previous look). A blocked
 * pool is normal for seconds (docs/live-service.md §2: backoff up to 30 s); `/healthz` calls the
 * daemon degraded only when one stays blocked beyond `health.limiterBlockedMaxMs`.
 */

/** The part of a pool's status the watch reads (src/exchange/rate-limits/pools.ts `PoolStatus`). */
export interface PoolSample {
  paused: boolean;
  refused: number;
}

export class LimiterWatch {
  private readonly since = new Map<string, number>();
  private readonly refused = new Map<string, number>();

  /** Records one look at every pool. */
  observe(pools: Readonly<Record<string, PoolSample>>, nowMs: number): void {
    for (const [pool, s] of Object.entries(pools)) {
      const grew = s.refused > (this.refused.get(pool) ?? s.refused);
      this.refused.set(pool, s.refused);
      if (!s.paused && !grew) this.since.delete(pool);
      else if (!this.since.has(pool)) this.since.set(pool, nowMs);
    }
  }

  /** Pool → when its current blocked stretch began. */
  blocked(): Record<string, number> {
    return Object.fromEntries(this.since);
  }
}
