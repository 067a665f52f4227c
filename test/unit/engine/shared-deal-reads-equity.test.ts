/**
 * The equity sources' collateral fold and the read models share one `SharedDealReads` per fills
 * handle: after a fill batch the new deals' rows are read once for both, and through random fills
 * and rolled-back transactions each still answers what a fresh reading of the store gives.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { EquitySources } from '../../../src/engine/equity-sources.js';
import type { MarketHoldRule } from '../../../src/engine/order-holds.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import { SharedDealReads } from '../../../src/engine/shared-deal-reads.js';
import { Prng } from '../../../src/simulator/prng.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const RULE: MarketHoldRule = { base: 'BTC', quote: 'USDT', feeReserveRate: new Decimal('0.001'), leverage: new Decimal(10) };
const rules = (): MarketHoldRule => RULE;

function order(s: Store, n: number): void {
  s.orders.insertPending(
    { clientOrderId: `c-${n}`, strategyId: 'c', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: dec('1'), price: dec('100'), postOnly: false, ioc: false, rpi: false, positionSide: 'BOTH' },
    0,
  );
}

function fill(s: Store, dealId: number, owner: number, side: 'buy' | 'sell', amount: string): void {
  s.fills.insert({
    dealId, orderId: owner, clientOrderId: `c-${owner}`, market: 'BTC_PERP', side, role: 'maker', timeMs: dealId, amount: dec(amount),
    price: dec(String(100 + (dealId % 7))), quote: dec(amount).times(100), fee: dec('0.01'), feeAsset: 'USDT', strategyId: 'c', ownerClientOrderId: `c-${owner}`,
  });
}

describe('deal reads shared by the equity sources and the read models', () => {
  it('one read of the new deals serves both, and each equals a fresh reading through rollbacks', () => {
    const s = memoryStore();
    let reads = 0;
    const counted = Object.create(s.fills, { byDealIds: { value: (ids: readonly number[]) => (reads++, s.fills.byDealIds(ids)) } }) as typeof s.fills;
    const src = { orders: s.orders, fills: counted, flex: s.flex };
    expect(SharedDealReads.of(counted)).toBe(SharedDealReads.of(counted));
    const equity = new EquitySources(src, rules);
    const read = new ReadModels(src);
    const prng = new Prng(3);
    const rnd = (): number => prng.next();
    let deal = 0;
    for (let n = 1; n <= 4; n++) order(s, n);
    const step = (): void => fill(s, ++deal, 1 + Math.floor(rnd() * 4), rnd() < 0.5 ? 'buy' : 'sell', `0.${1 + Math.floor(rnd() * 9)}`);
    for (let i = 0; i < 120; i++) {
      const r = rnd();
      if (r < 0.6) step();
      else if (r < 0.8) {
        expect(() =>
          s.tx(() => {
            step();
            equity.read();
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      }
      expect(JSON.stringify(equity.read().positions)).toEqual(JSON.stringify(new EquitySources(s, rules).read().positions));
      expect(read.recentFills('c', 5)).toEqual(s.fills.recentByStrategy('c', 5));
    }
    // Both looked after the last batch: the next batch's rows are read once for the two of them.
    const before = reads;
    step();
    step();
    equity.read();
    read.recentFills('c', 5);
    expect(reads).toBe(before + 1);
    expect(equity.read().positions.map((p) => p.market)).toEqual(['BTC_PERP']);
  });
});
