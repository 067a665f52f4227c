import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, AuthError, InvalidOrderError, StoreError } from '../../../src/core/errors.js';
import type { LimitOrderSpec } from '../../../src/engine/order-manager.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string) => new Decimal(s);
const spec = (i = 0): LimitOrderSpec => ({ market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d(String(60000 + i)) });

function setup(resolve = { graceMs: 10_000, minLooks: 3 }) {
  const dir = tempDir();
  const g = new FakeGateway();
  const clock = new ManualClock(1_700_000_000_000);
  const e = buildEngine(dir, g, clock, { resolve });
  closeAfterTest(e.store);
  return { e, g, clock };
}

describe('OrderManager placement', () => {
  it('journals every order as PENDING (one transaction) before the request reaches the venue', async () => {
    const { e, g } = setup();
    const seen: string[][] = [];
    g.onPlaceRequest = (orders) => {
      seen.push(orders.map((o) => `${o.clientOrderId}:${e.store.orders.get(o.clientOrderId)?.state ?? 'missing'}`));
      // all 45 were journaled before the first chunk left
      expect(e.store.orders.listByStrategy('grid').length).toBe(45);
    };
    const out = await e.orders.placeLimitOrders('grid', Array.from({ length: 45 }, (_, i) => spec(i)));
    expect(seen.map((c) => c.length)).toEqual([20, 20, 5]);
    expect(seen.flat().every((s) => s.endsWith(':PENDING'))).toBe(true);
    expect(out.every((o) => o.status === 'placed')).toBe(true);
    expect(e.store.orders.listByState(['OPEN'])).toHaveLength(45);
  });

  it('clientOrderIds are deterministic, unique, ≤ 32 chars and never reused across calls and restarts', async () => {
    const { e, g } = setup();
    const a = await e.orders.placeLimitOrders('my-strategy/with:odd chars', [spec(), spec(1)]);
    const b = await e.orders.placeLimitOrders('my-strategy/with:odd chars', [spec(2)]);
    const ids = [...a, ...b].map((o) => o.clientOrderId);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,32}$/);
    expect(g.calls.filter((c) => c.method === 'bulk')).toHaveLength(2);
  });

  it('applies each item outcome to its own intent: placed, rejected, not_sent, unknown', async () => {
    const { e, g } = setup();
    const script = ['place', 'reject', 'not_sent', 'unknown', 'fill'] as const;
    let i = 0;
    g.place = () => script[i++] ?? 'place';
    const out = await e.orders.placeLimitOrders('s', script.map((_, k) => spec(k)));
    expect(out.map((o) => o.status)).toEqual(['placed', 'rejected', 'not_sent', 'unknown', 'placed']);
    const states = out.map((o) => e.store.orders.get(o.clientOrderId)?.state);
    expect(states).toEqual(['OPEN', 'REJECTED', 'REJECTED', 'UNKNOWN', 'FILLED']);
    expect(e.store.orders.get(out[2]!.clientOrderId)?.reason).toMatch(/^not_sent:/);
    expect(e.store.orders.get(out[3]!.clientOrderId)?.unknownSinceMs).not.toBeNull();
  });

  it('a duplicate-clientOrderId refusal is ambiguous (an earlier attempt landed), never REJECTED', async () => {
    const { e, g } = setup();
    g.bulkLimitOrders = async (orders) =>
      orders.map((o) => ({ status: 'rejected' as const, clientOrderId: o.clientOrderId, error: new InvalidOrderError('duplicate_client_order_id', 'used', 36) }));
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    expect(o?.status).toBe('unknown');
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('UNKNOWN');
  });

  it('a reply that reports a fill has its deals fetched before the placement returns; the others are not looked up', async () => {
    const { e, g } = setup();
    const script = ['place', 'fill', 'place'] as const;
    let i = 0;
    g.place = () => script[i++] ?? 'place';
    const out = await e.orders.placeLimitOrders('s', script.map((_, k) => spec(k)));
    const filled = e.store.orders.get(out[1]!.clientOrderId);
    expect(filled?.filledBase.toFixed()).toBe('0.01');
    expect(e.store.fills.byOwner(out[1]!.clientOrderId).length).toBeGreaterThan(0);
    expect(g.calls.filter((c) => c.method === 'history')).toHaveLength(1);
    g.place = () => 'fill';
    const c = await e.orders.placeCollateralOrder('s', { ...spec(9), market: 'BTC_PERP' });
    expect(e.store.orders.get(c.clientOrderId)?.filledBase.toFixed()).toBe('0.01');
    g.place = () => 'place';
    await e.orders.placeLimitOrders('s', [spec(5)]);
    expect(g.calls.filter((c) => c.method === 'history')).toHaveLength(2);
  });

  it('collateral order records its otoId and stop-loss / take-profit children', async () => {
    const { e } = setup();
    const o = await e.orders.placeCollateralOrder('s', { ...spec(), market: 'BTC_PERP', stopLoss: d('55000'), takeProfit: d('65000') });
    expect(o.status).toBe('placed');
    const rec = e.store.orders.get(o.clientOrderId);
    expect(rec?.otoId).toBeTypeOf('number');
    const kids = e.store.children.byParent(o.clientOrderId);
    expect(kids.map((c) => [c.kind, c.price.toFixed(), c.otoId])).toEqual([
      ['stop_loss', '55000', rec?.otoId],
      ['take_profit', '65000', rec?.otoId],
    ]);
  });

  it('collateral errors: refusal → REJECTED, auth → not_sent, ambiguity → UNKNOWN', async () => {
    const { e, g } = setup();
    g.place = () => 'reject';
    expect((await e.orders.placeCollateralOrder('s', spec())).status).toBe('rejected');
    g.collateralLimitOrder = async () => {
      throw new AuthError('unauthorized', 'no');
    };
    expect((await e.orders.placeCollateralOrder('s', spec())).status).toBe('not_sent');
    g.collateralLimitOrder = async (o) => {
      throw new AmbiguousOutcomeError('collateral', [o.clientOrderId], 'timeout');
    };
    const u = await e.orders.placeCollateralOrder('s', spec());
    expect(u.status).toBe('unknown');
    expect(e.store.orders.get(u.clientOrderId)?.state).toBe('UNKNOWN');
  });
});

describe('OrderManager cancel', () => {
  it('PENDING_CANCEL is journaled before the request, then CANCELLED on confirmation', async () => {
    const { e, g } = setup();
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    let stateAtRequest = '';
    const orig = g.cancelOrder.bind(g);
    g.cancelOrder = (r) => {
      stateAtRequest = e.store.orders.get(o!.clientOrderId)?.state ?? '';
      return orig(r);
    };
    expect(await e.orders.cancelOrder('s', o!.clientOrderId)).toEqual({ status: 'cancelled', clientOrderId: o!.clientOrderId });
    expect(stateAtRequest).toBe('PENDING_CANCEL');
    expect(e.store.orders.history(o!.clientOrderId).map((h) => h.to)).toEqual(['PENDING', 'OPEN', 'PENDING_CANCEL', 'CANCELLED']);
  });

  it('"not found" with a complete fill in executed history → FILLED, not CANCELLED', async () => {
    const { e, g } = setup();
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    const v = g.venueOrders.get(o!.clientOrderId)!;
    v.status = 'FILLED';
    g.addDeal(v, d('0.01'), d('60000'));
    expect((await e.orders.cancelOrder('s', o!.clientOrderId)).status).toBe('filled');
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('FILLED');
    expect(e.store.fills.count()).toBe(1);
  });

  it('"not found" without fills stays PENDING_CANCEL until the grace period and looks are over', async () => {
    const { e, g, clock } = setup({ graceMs: 10_000, minLooks: 2 });
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    g.venueOrders.get(o!.clientOrderId)!.status = 'CANCELLED';
    expect((await e.orders.cancelOrder('s', o!.clientOrderId)).status).toBe('pending');
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('PENDING_CANCEL');
    await e.resolver.resolveAll();
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('PENDING_CANCEL');
    clock.advance(10_000);
    await e.resolver.resolveAll();
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('CANCELLED');
  });

  it('an ambiguous cancel stays PENDING_CANCEL; the resolver settles it', async () => {
    const { e, g } = setup();
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    g.cancelScript = () => 'unknown';
    expect((await e.orders.cancelOrder('s', o!.clientOrderId)).status).toBe('pending');
    g.cancelScript = () => 'default';
    await e.resolver.resolveAll();
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('CANCELLED');
  });

  it('cancelAll cancels only the live orders of that strategy and market', async () => {
    const { e } = setup();
    await e.orders.placeLimitOrders('a', [spec(), { ...spec(1), market: 'ETH_USDT' }]);
    await e.orders.placeLimitOrders('b', [spec(2)]);
    const out = await e.orders.cancelAll('a', 'BTC_USDT');
    expect(out.map((o) => o.status)).toEqual(['cancelled']);
    expect(e.store.orders.listByState(['OPEN']).map((o) => o.strategyId).sort()).toEqual(['a', 'b']);
  });
});

describe('resolver', () => {
  it('applied-but-ambiguous order: the cancel probe proves it existed → CANCELLED, never resent', async () => {
    const { e, g } = setup();
    g.place = () => 'applied_unknown';
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    expect(o?.status).toBe('unknown');
    const r = await e.resolver.resolveAll();
    expect(r).toEqual([{ clientOrderId: o!.clientOrderId, verdict: 'CANCELLED', evidence: 'cancel probe' }]);
    expect(g.calls.filter((c) => c.method === 'bulk')).toHaveLength(1);
    expect(e.store.orders.get(o!.clientOrderId)?.orderId).toBe(g.venueOrders.get(o!.clientOrderId)?.orderId);
  });

  it('fills in executed history settle it as FILLED without a probe', async () => {
    const { e, g } = setup();
    g.place = () => 'applied_unknown';
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    const v = g.venueOrders.get(o!.clientOrderId)!;
    v.status = 'FILLED';
    g.addDeal(v, d('0.004'), d('60000'));
    g.addDeal(v, d('0.006'), d('60000'));
    const [r] = await e.resolver.resolveAll();
    expect(r?.verdict).toBe('FILLED');
    expect(g.calls.some((c) => c.method === 'cancel')).toBe(false);
    expect(e.store.orders.get(o!.clientOrderId)?.filledBase.toFixed()).toBe('0.01');
  });

  it('never-applied ambiguous order: several looks and the grace period, then CANCELLED (lost), never REJECTED; late fills still count', async () => {
    const { e, g, clock } = setup({ graceMs: 10_000, minLooks: 3 });
    g.place = () => 'unknown';
    const [o] = await e.orders.placeLimitOrders('s', [spec()]);
    const cid = o!.clientOrderId;
    for (let i = 0; i < 3; i++) {
      const [r] = await e.resolver.resolveAll();
      expect(r?.verdict).toBe('pending');
      clock.advance(2_000);
    }
    clock.advance(10_000);
    const [r] = await e.resolver.resolveAll();
    expect(r?.verdict).toBe('CANCELLED');
    expect(e.store.orders.get(cid)?.reason).toMatch(/^lost/);
    expect(e.store.alerts.list('order_lost')).toHaveLength(1);
    expect(e.store.orders.history(cid).some((h) => h.to === 'REJECTED')).toBe(false);
    // the venue had it after all: its fill still arrives and counts for the strategy
    g.addDeal({ orderId: 4242, clientOrderId: cid, market: 'BTC_USDT', side: 'buy' }, d('0.01'), d('60000'));
    await e.reconciler.scanOnce();
    expect(e.store.fills.byStrategy('s').map((f) => f.ownerClientOrderId)).toEqual([cid]);
  });

  it('PENDING rows left by a previous process (killed between journal and reply) become UNKNOWN and are resolved, not resent', async () => {
    const dir = tempDir();
    const g = new FakeGateway();
    const clock = new ManualClock(1_700_000_000_000);
    const e1 = buildEngine(dir, g, clock);
    const cid = 's-crash1';
    e1.store.tx(() => e1.store.orders.insertPending({ clientOrderId: cid, strategyId: 's', kind: 'limit', ...spec(), postOnly: false, ioc: false, rpi: false }, clock.now()));
    await g.bulkLimitOrders([{ ...spec(), clientOrderId: cid }]); // it reached the venue
    e1.store.close(); // the process is gone
    const e2 = buildEngine(dir, g, clock);
    try {
      const [r] = await e2.resolver.resolveAll();
      expect(r).toMatchObject({ clientOrderId: cid, verdict: 'CANCELLED', evidence: 'cancel probe' });
      expect(e2.store.orders.history(cid).map((h) => h.to)).toEqual(['PENDING', 'UNKNOWN', 'CANCELLED']);
      expect(g.calls.filter((c) => c.method === 'bulk')).toHaveLength(1);
    } finally {
      e2.store.close();
    }
  });

  it('collateral order found resting under its OTO in the conditional listing → OPEN without a probe', async () => {
    const { e, g } = setup();
    g.place = () => 'applied_unknown';
    const o = await e.orders.placeCollateralOrder('s', { ...spec(), market: 'BTC_PERP', stopLoss: d('50000') });
    const v = g.venueOrders.get(o.clientOrderId)!;
    g.conditional = [{ kind: 'oto', id: 777, parent: { orderId: v.orderId, clientOrderId: o.clientOrderId, market: 'BTC_PERP', side: 'buy', type: 'limit', rawType: 'limit', status: 'OPEN', amount: v.amount, price: v.price, filledBase: d('0'), filledQuote: d('0'), remaining: v.amount, fee: d('0'), timestampMs: 0 } }];
    const [r] = await e.resolver.resolveAll();
    expect(r).toMatchObject({ verdict: 'OPEN', evidence: 'conditional listing' });
    expect(e.store.orders.get(o.clientOrderId)).toMatchObject({ orderId: v.orderId, otoId: 777 });
    expect(g.calls.some((c) => c.method === 'cancel')).toBe(false);
  });
});

describe('flex close', () => {
  it('journals the close and records the transaction id; an ambiguous close is resolved from flex history', async () => {
    const { e, g } = setup();
    const ok = await e.orders.closeFlex('s', { plan: 'p1' });
    expect(ok).toMatchObject({ status: 'done', transactionId: 'tx-p1' });
    g.closeFlex = async () => {
      throw new AmbiguousOutcomeError('closeFlex', [], 'reset');
    };
    const u = await e.orders.closeFlex('s', { plan: 'p2' });
    expect(u.status).toBe('unknown');
    g.flexLedger = [{ transactionId: 'T2', createdAtMs: 1_700_000_000_000, planId: 'p2', investmentId: 'i', currency: 'USDT', amount: d('5'), actionType: 'CLOSE_INVESTMENT' }];
    const r = await e.resolver.resolveAll();
    expect(r).toContainEqual({ clientOrderId: u.id, verdict: 'DONE', evidence: 'flex history' });
    expect(e.store.flex.intents().map((i) => [i.state, i.transactionId])).toEqual([
      ['DONE', 'tx-p1'],
      ['DONE', 'T2'],
    ]);
  });
});

describe('a failed store write (docs/failure-modes.md #17; a real SQLite error, not a mock)', () => {
  // Another connection holds the write lock: the store's writes fail (SQLITE_BUSY after its
  // 5 s busy timeout), as any write fails on a full disk.
  it('journal write fails: nothing is sent; the result write fails after sending: the row stays PENDING and is resolved, never resent', async () => {
    const { e, g } = setup({ graceMs: 0, minLooks: 1 });
    const blocker = new Database(e.store.file);
    try {
      blocker.exec('BEGIN IMMEDIATE');
      await expect(e.orders.placeLimitOrders('s', [spec(0)])).rejects.toBeInstanceOf(StoreError);
      expect(g.calls.filter((c) => c.method === 'bulk')).toHaveLength(0);
      expect(e.store.orders.all()).toEqual([]);
      blocker.exec('ROLLBACK');

      g.onPlaceRequest = () => blocker.exec('BEGIN IMMEDIATE'); // the disk fills while the request is out
      await expect(e.orders.placeLimitOrders('s', [spec(1)])).rejects.toBeInstanceOf(StoreError);
      g.onPlaceRequest = undefined;
      blocker.exec('ROLLBACK');
      const [row] = e.store.orders.all();
      expect(row?.state).toBe('PENDING'); // never reported as placed, nor as rejected
      const [r] = await e.resolver.resolveAll();
      expect(r).toMatchObject({ clientOrderId: row?.clientOrderId, verdict: 'CANCELLED', evidence: 'cancel probe' });
      expect(g.calls.filter((c) => c.method === 'bulk')).toHaveLength(1);
    } finally {
      blocker.close();
    }
  }, 30_000);
});
