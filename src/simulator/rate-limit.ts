/**
 * Sliding-window rate limits per pool (docs/live-service.md §2), on the simulator clock. Everything
 * arrives from loopback, so one window per pool stands in for the venue's per-IP limit.
 */
import type { RateLimit, RatePool } from './options.js';

export class RateLimiter {
  private readonly hits = new Map<RatePool, number[]>();

  constructor(private readonly limits: Record<RatePool, RateLimit>) {}

  /** Records a request at `nowMs`; false when the pool is over its limit (request not counted). */
  allow(pool: RatePool, nowMs: number): boolean {
    const { limit, windowMs } = this.limits[pool];
    let list = this.hits.get(pool);
    if (list === undefined) {
      list = [];
      this.hits.set(pool, list);
    }
    let drop = 0;
    while (drop < list.length && (list[drop] ?? 0) <= nowMs - windowMs) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= limit) return false;
    list.push(nowMs);
    return true;
  }
}

const ACCOUNT_POOLS: Record<string, RatePool> = {
  '/api/v4/main-account/balance': 'balance',
  '/api/v4/main-account/smart-flex/investments/history': 'flexHistory',
  '/api/v4/main-account/smart-flex/investments/close': 'flexClose',
  '/api/v4/credit-line/loans/info': 'creditLine',
};

/** Pool of an endpoint path (a known endpoint's; the server answers 404 before asking for others). */
export function poolOf(path: string): RatePool {
  if (path.startsWith('/api/v4/public/')) return 'public';
  if (path.startsWith('/api/v4/order/')) return 'orders';
  if (path === '/api/v4/trade-account/executed-history') return 'history';
  if (path === '/api/v4/orders/conditional' || path === '/api/v4/conditional-orders') return 'conditional';
  return ACCOUNT_POOLS[path] ?? 'balance';
}
