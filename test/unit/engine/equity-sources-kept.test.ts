/**
 * The journal's parts of equity are kept between reads (equity-sources.ts): every write between
 * two reads (an order journaled, answered, cancelled; a flex ledger row) must be seen, the kept
 * reading must equal a fresh one, and a transaction that rolled back must leave nothing behind.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { EquitySources, type JournalParts } from '../../../src/engine/equity-sources.js';
import type { MarketHoldRule } from '../../../src/engine/order-holds.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const RULE: MarketHoldRule = { base: 'BTC', quote: 'USDT', feeReserveRate: new Decimal('0.001'), leverage: new Decimal(10) };
const rules = (): MarketHoldRule => RULE;

/** Every figure as text, so two readings compare to the last decimal. */
function text(p: JournalParts): unknown {
  const map = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toFixed()]));
  return { held: map(p.held.byAsset), flex: map(p.flex), pending: p.pending, unruled: p.unruled, fingerprint: p.fingerprint, positions: p.positions.length };
}

function journal(s: Store, id: string, price: string): void {
  s.orders.insertPending({ clientOrderId: id, strategyId: 'grid', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: dec('1'), price: dec(price), postOnly: true, ioc: false, rpi: false }, 0);
}

function flexRow(s: Store, n: number, amount: string): void {
  s.flex.insert({ transactionId: `t${n}`, createdAtMs: n, planId: 'p', investmentId: 'i1', currency: 'USDT', amount: dec(amount), actionType: n === 1 ? 'INVEST' : 'REINVEST' });
}

describe('the journal parts kept between equity reads', () => {
  it('see every order and flex write between two reads, and equal a fresh reading', () => {
    const s = memoryStore();
    const kept = new EquitySources(s, rules);
    const writes: (() => void)[] = [
      () => journal(s, 'g-1', '100'),
      () => s.orders.setState('g-1', 'PENDING', 'OPEN', null, 1, { orderId: 11 }),
      () => journal(s, 'g-2', '50'),
      () => flexRow(s, 1, '200'),
      () => s.orders.setState('g-2', 'PENDING', 'OPEN', null, 2, { orderId: 12 }),
      () => flexRow(s, 2, '5'),
      () => s.orders.setState('g-1', 'OPEN', 'CANCELLED', null, 3),
      () => s.orders.setState('g-2', 'OPEN', 'PARTIALLY_FILLED', null, 4, { filledBase: dec('0.5') }),
    ];
    const seen: unknown[] = [text(kept.read())];
    for (const w of writes) {
      w();
      const r = kept.read();
      expect(text(r)).toEqual(text(new EquitySources(s, rules).read()));
      seen.push(text(r));
    }
    expect(seen.map((r) => (r as { pending: number }).pending)).toEqual([0, 1, 0, 1, 1, 0, 0, 0, 0]);
    expect(seen.map((r) => (r as { held: Record<string, string> }).held['USDT'] ?? '0')).toEqual(['0', '0', '100.1', '100.1', '100.1', '150.15', '150.15', '50.05', '25.025']);
    expect(seen.map((r) => (r as { flex: Record<string, string> }).flex['USDT'] ?? '0')).toEqual(['0', '0', '0', '0', '200', '200', '205', '205', '205']);
    // Every write moved the fingerprint: a balance read across it is never taken as settled.
    expect(new Set(seen.map((r) => (r as { fingerprint: string }).fingerprint)).size).toBe(seen.length);
  });

  it("a reading's fingerprint, made when first read, is the one of the journal it was read from, whatever was written since", () => {
    const s = memoryStore();
    const kept = new EquitySources(s, rules);
    const writes: (() => void)[] = [
      () => journal(s, 'g-1', '100'),
      () => s.orders.setState('g-1', 'PENDING', 'OPEN', null, 1, { orderId: 11 }),
      () => flexRow(s, 1, '200'),
      () => s.orders.setState('g-1', 'OPEN', 'PARTIALLY_FILLED', null, 2, { filledBase: dec('0.5') }),
      () => s.orders.setState('g-1', 'PARTIALLY_FILLED', 'CANCELLED', null, 3),
    ];
    for (const w of writes) {
      const unread = kept.read();
      const atOnce = new EquitySources(s, rules).read().fingerprint;
      w();
      kept.read();
      expect(unread.fingerprint).toBe(atOnce);
    }
  });

  it('a read inside a transaction that rolled back leaves nothing kept', () => {
    const s = memoryStore();
    const kept = new EquitySources(s, rules);
    flexRow(s, 1, '200');
    journal(s, 'g-1', '100');
    s.orders.setState('g-1', 'PENDING', 'OPEN', null, 1, { orderId: 11 });
    const before = text(kept.read());
    expect(() =>
      s.tx(() => {
        flexRow(s, 2, '5');
        s.orders.setState('g-1', 'OPEN', 'CANCELLED', null, 2);
        const inside = kept.read();
        expect([inside.flex['USDT']?.toFixed(), inside.held.byAsset['USDT']?.toFixed() ?? '0']).toEqual(['205', '0']);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    const after = text(kept.read());
    expect(after).toEqual(text(new EquitySources(s, rules).read()));
    expect({ ...(after as object), fingerprint: '' }).toEqual({ ...(before as object), fingerprint: '' });
  });
});
