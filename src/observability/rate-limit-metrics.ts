/**
 * Scrape-time gauges of the request queue: per pool the budget, what was used of it, what waits,
 * whether it is paused and how many jobs the bounded queue refused; the shared store's
 * reachability and the second-signer watch. Pulled through the metrics collector.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** One pool's figures (the client's `rateLimitStatus()`). */
export interface RateLimitPoolState {
  /** Budget per window (limit × safety margin). */
  limit: number;
  used: number;
  queued: number;
  paused: boolean;
  /** Jobs refused by the bounded queue since start. */
  refused: number;
}

/** The request queue's health (the client's `requestQueueHealth()`, flattened). */
export interface RequestQueueState {
  storeUp: boolean;
  nonceCollisionSuspected: boolean;
  /** Nonce refusals this process could not explain, since start. */
  nonceRefusalsUnexplained: number;
}

export interface RateLimitCollected {
  rateLimits?: Record<string, RateLimitPoolState>;
  /** Budget left per pool; derived from `rateLimits` when absent. */
  rateLimitRemaining?: Record<string, number>;
  requestQueue?: RequestQueueState;
}

type PoolField = 'limit' | 'used' | 'queued';

function remaining(c: RateLimitCollected | null): Record<string, number> {
  if (c?.rateLimitRemaining !== undefined) return c.rateLimitRemaining;
  return Object.fromEntries(Object.entries(c?.rateLimits ?? {}).map(([pool, s]) => [pool, Math.max(0, s.limit - s.used)]));
}

export function registerRateLimitMetrics(registry: Registry, read: () => RateLimitCollected | null): void {
  const perPool = (name: string, help: string, value: (s: RateLimitPoolState) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [pool, s] of Object.entries(read()?.rateLimits ?? {})) this.set({ pool }, value(s));
      },
    });
  };
  const field = (f: PoolField) => (s: RateLimitPoolState): number => s[f];
  perPool('bot_rate_limit_budget', 'Requests per window this client allows itself, by pool', field('limit'));
  perPool('bot_rate_limit_used', 'Weight this process sent in the last window, by pool', field('used'));
  perPool('bot_rate_limit_queued', 'Calls waiting in the local queue, by pool', field('queued'));
  perPool('bot_rate_limit_paused', '1 while the pool is paused after a venue 429', (s) => (s.paused ? 1 : 0));
  new Gauge({
    name: 'bot_rate_limit_remaining',
    help: 'Rate-limit budget left in the current window, by pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, n] of Object.entries(remaining(read()))) this.set({ pool }, n);
    },
  });
  new Counter({
    name: 'bot_rate_limit_refused_total',
    help: 'Calls refused by the bounded queue, by pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, s] of Object.entries(read()?.rateLimits ?? {})) this.inc({ pool }, s.refused);
    },
  });
  registerQueueHealth(registry, () => read()?.requestQueue);
}

function registerQueueHealth(registry: Registry, read: () => RequestQueueState | undefined): void {
  new Gauge({
    name: 'bot_rate_limit_store_up',
    help: '1 while the rate-limit store is reachable (always 1 for local budgets)',
    registers: [registry],
    collect() {
      this.set(read()?.storeUp === false ? 0 : 1);
    },
  });
  new Gauge({
    name: 'bot_nonce_collision_suspected',
    help: '1 while nonce refusals suggest another process signs with the same API key',
    registers: [registry],
    collect() {
      this.set(read()?.nonceCollisionSuspected === true ? 1 : 0);
    },
  });
  new Counter({
    name: 'bot_nonce_refusals_unexplained_total',
    help: 'Nonce refusals this process cannot explain by its own nonces or clock',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read()?.nonceRefusalsUnexplained ?? 0);
    },
  });
}
