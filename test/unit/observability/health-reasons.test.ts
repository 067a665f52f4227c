/**
 * `/healthz` degraded reasons: each condition alone yields its code (and only it), a healthy
 * daemon yields none, and the limiter watch times a blocked pool (paused or refusing) with a
 * ManualClock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { cronIntervalMs } from '../../../src/daemon/observability.js';
import { degradedReasons, type HealthInputs } from '../../../src/observability/health.js';
import { LimiterWatch } from '../../../src/observability/limiter-watch.js';

const NOW = 1_700_000_000_000;

function inputs(over: Partial<HealthInputs> = {}): HealthInputs {
  return {
    nowMs: NOW,
    tradingState: 'ACTIVE',
    tradingStateReason: 'initial',
    strategies: ['grid', 'treas'],
    quarantined: [],
    reconcile: { ok: true, lastSuccessMs: NOW - 1_000, lastError: null },
    reconcileStaleAfterMs: 90_000,
    blockedPools: {},
    limiterBlockedMaxMs: 60_000,
    requestQueue: { store: 'local', storeUp: true, storeDownSinceMs: null, nonceCollisionSuspected: false },
    ...over,
  };
}

const codes = (i: HealthInputs): string[] => degradedReasons(i).map((r) => r.code);

describe('degradedReasons', () => {
  it('is empty for a healthy daemon', () => {
    expect(degradedReasons(inputs())).toEqual([]);
  });

  it('names the assets whose balance change the last audit could not explain, and nothing for a clean audit', () => {
    const r = degradedReasons(inputs({ audit: { atMs: NOW - 5_000, unexplained: [{ asset: 'BTC', difference: '+0.01' }, { asset: 'USDT', difference: '-601.2' }] } }));
    expect(r).toEqual([
      {
        code: 'books_unexplained',
        detail: `the balance audit at ${new Date(NOW - 5_000).toISOString()} found balance changes the books do not explain: BTC +0.01, USDT -601.2`,
      },
    ]);
    expect(codes(inputs({ audit: { atMs: NOW, unexplained: [] } }))).toEqual([]);
    expect(codes(inputs({ audit: null }))).toEqual([]);
  });

  it('names a HALTED trading state with its reason', () => {
    const r = degradedReasons(inputs({ tradingState: 'HALTED', tradingStateReason: 'drawdown kill switch' }));
    expect(r).toEqual([{ code: 'trading_halted', detail: 'trading is HALTED: drawdown kill switch' }]);
    expect(codes(inputs({ tradingState: 'REDUCE_ONLY' }))).toEqual([]);
  });

  it('is degraded when every strategy is quarantined, not when one of two is', () => {
    expect(codes(inputs({ quarantined: ['grid'] }))).toEqual([]);
    expect(codes(inputs({ quarantined: ['grid', 'treas'] }))).toEqual(['all_strategies_quarantined']);
    expect(codes(inputs({ strategies: [], quarantined: [] }))).toEqual([]);
  });

  it('tells a failing reconciliation from a stale one (older than the threshold)', () => {
    expect(codes(inputs({ reconcile: { ok: false, lastSuccessMs: NOW - 1_000, lastError: 'TRANSIENT_TIMEOUT' } }))).toEqual(['reconcile_failing']);
    expect(codes(inputs({ reconcile: { ok: true, lastSuccessMs: NOW - 90_000, lastError: null } }))).toEqual([]);
    const stale = degradedReasons(inputs({ reconcile: { ok: true, lastSuccessMs: NOW - 90_001, lastError: null } }));
    expect(stale).toEqual([{ code: 'reconcile_stale', detail: 'last successful reconciliation 90001 ms ago (limit 90000 ms)' }]);
  });

  it('names a pool blocked beyond the limit, not one blocked for less', () => {
    expect(codes(inputs({ blockedPools: { orders: NOW - 60_000 } }))).toEqual([]);
    expect(degradedReasons(inputs({ blockedPools: { orders: NOW - 60_001 } }))).toEqual([
      { code: 'rate_limit_blocked', detail: 'pool orders paused or refusing calls for 60001 ms (limit 60000 ms)' },
    ]);
  });

  it('keeps the request queue cases: store down, second signer', () => {
    expect(codes(inputs({ requestQueue: { store: 'redis', storeUp: false, storeDownSinceMs: NOW - 5, nonceCollisionSuspected: false } }))).toEqual(['rate_limit_store_down']);
    expect(codes(inputs({ requestQueue: { store: 'local', storeUp: true, storeDownSinceMs: null, nonceCollisionSuspected: true } }))).toEqual(['nonce_collision_suspected']);
  });

  it('lists every reason at once', () => {
    const all = inputs({
      tradingState: 'HALTED',
      quarantined: ['grid', 'treas'],
      reconcile: { ok: false, lastSuccessMs: NOW - 200_000, lastError: 'x' },
      blockedPools: { orders: NOW - 120_000 },
      requestQueue: { store: 'redis', storeUp: false, storeDownSinceMs: NOW, nonceCollisionSuspected: true },
    });
    expect(codes(all)).toEqual([
      'trading_halted', 'all_strategies_quarantined', 'reconcile_failing', 'reconcile_stale', 'rate_limit_blocked', 'rate_limit_store_down', 'nonce_collision_suspected',
    ]);
  });
});

describe('LimiterWatch', () => {
  it('times a paused pool from the first look that saw it paused, and forgets it once free', () => {
    const clock = new ManualClock(NOW);
    const w = new LimiterWatch();
    w.observe({ orders: { paused: false, refused: 0 }, reads: { paused: false, refused: 0 } }, clock.now());
    expect(w.blocked()).toEqual({});
    clock.advance(1_000);
    w.observe({ orders: { paused: true, refused: 0 }, reads: { paused: false, refused: 0 } }, clock.now());
    clock.advance(30_000);
    w.observe({ orders: { paused: true, refused: 0 }, reads: { paused: false, refused: 0 } }, clock.now());
    expect(w.blocked()).toEqual({ orders: NOW + 1_000 });
    w.observe({ orders: { paused: false, refused: 0 }, reads: { paused: false, refused: 0 } }, clock.now());
    expect(w.blocked()).toEqual({});
  });

  it('counts a pool as blocked while its refused counter keeps growing', () => {
    const clock = new ManualClock(NOW);
    const w = new LimiterWatch();
    w.observe({ orders: { paused: false, refused: 5 } }, clock.now());
    expect(w.blocked()).toEqual({});
    clock.advance(1_000);
    w.observe({ orders: { paused: false, refused: 9 } }, clock.now());
    clock.advance(1_000);
    w.observe({ orders: { paused: false, refused: 12 } }, clock.now());
    expect(w.blocked()).toEqual({ orders: NOW + 1_000 });
    clock.advance(1_000);
    w.observe({ orders: { paused: false, refused: 12 } }, clock.now());
    expect(w.blocked()).toEqual({});
  });
});

describe('cronIntervalMs', () => {
  it('is the gap between runs of a schedule', () => {
    expect(cronIntervalMs('*/30 * * * * *')).toBe(30_000);
    expect(cronIntervalMs('* * * * * *')).toBe(1_000);
    expect(cronIntervalMs('0 */10 * * * *')).toBe(600_000);
  });
});
