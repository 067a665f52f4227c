/**
 * An equity reading with nothing new (equity-sources.ts keeps the journal reading while no order,
 * fill or flex row was written; equity-reader.ts KeptValuation keeps the valuation while the
 * journal reading, the balances and the prices it looks up are the same) must give what a reading
 * from scratch gives, and must not keep anything across a new order, a fill, a moved balance or a
 * move of a price it looks up, even one that takes equity past the drawdown limit; a market whose
 * asset is not held moves without a new valuation (real SQLite store).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { equityOf, type Equity } from '../../../src/engine/equity.js';
import { KeptValuation, lastPrices, readEquity, type EquityReading, type VenueReading } from '../../../src/engine/equity-reader.js';
import { EquitySources } from '../../../src/engine/equity-sources.js';
import { EquityWatch } from '../../../src/engine/equity-watch.js';
import type { MarketHoldRule } from '../../../src/engine/order-holds.js';
import type { PriceView } from '../../../src/strategy-api/host.js';
import { memoryStore } from '../../support/test-scope.js';

const RULE: MarketHoldRule = { base: 'BTC', quote: 'USDT', feeReserveRate: new Decimal('0.001'), leverage: new Decimal(10) };
const rules = (): MarketHoldRule => RULE;

/** Every figure as text: two equities compare to the last digit. */
function text(e: Equity): unknown {
  const map = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toFixed()]));
  return { total: e.total.toFixed(), parts: map(e.parts), unvalued: map(e.unvalued), unmarked: e.unmarked };
}

class Rig {
  readonly store = memoryStore();
  readonly sources = new EquitySources(this.store, rules);
  readonly valuation = new KeptValuation();
  readonly breaches: string[] = [];
  readonly watch = new EquityWatch({ store: this.store, limits: { maxDrawdownPct: new Decimal(10) } as never, onBreach: (r) => this.breaches.push(r) });
  usdt = '1000';
  price = '100';
  /** A BTC balance (priced at BTC_USDT when not zero) and markets the account may not hold. */
  btc = '0';
  spot: string | undefined = '100';
  eth = '10';
  private deal = 0;
  private placed = 0;

  /** The venue's answer: new objects every time, as a fresh read gives. */
  venue(): VenueReading {
    const p = dec(this.price);
    const view = (ticker: string, base: string, last: Decimal): PriceView => ({ ticker, base, quote: 'USDT', last, bid: last, ask: last });
    const prices: Record<string, PriceView> = { BTC_PERP: view('BTC_PERP', 'BTC', p), ETH_PERP: view('ETH_PERP', 'ETH', dec(this.eth)) };
    if (this.spot !== undefined) prices['BTC_USDT'] = view('BTC_USDT', 'BTC', dec(this.spot));
    return { balances: { USDT: dec(this.usdt), BTC: dec(this.btc) }, prices };
  }

  /** One check as the engine runs it, and the same reading valued from scratch. */
  async check(): Promise<{ r: EquityReading; scratch: Equity }> {
    const r = await readEquity({ equityAsset: 'USDT', sources: this.sources, fresh: async () => this.venue(), valuation: this.valuation });
    this.watch.update(r.equity);
    const journal = new EquitySources(this.store, rules).read();
    const v = this.venue();
    const scratch = equityOf({ equityAsset: 'USDT', balances: v.balances, held: journal.held.byAsset, positions: journal.positions, flex: journal.flex, prices: lastPrices(v.prices) });
    return { r, scratch };
  }

  order(id: string, price: string): void {
    this.store.orders.insertPending({ clientOrderId: id, strategyId: 'grid', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: dec('1'), price: dec(price), postOnly: true, ioc: false, rpi: false }, 0);
    this.store.orders.setState(id, 'PENDING', 'OPEN', null, 1, { orderId: 100 + ++this.placed });
  }

  fill(amount: string, price: string): void {
    const a = dec(amount);
    const p = dec(price);
    this.deal++;
    this.store.fills.insert({
      ...{ dealId: this.deal, orderId: 900 + this.deal, clientOrderId: '', market: 'BTC_PERP', side: 'buy', role: 'taker', timeMs: this.deal },
      ...{ amount: a, price: p, quote: a.mul(p), fee: dec('0'), feeAsset: 'USDT', strategyId: null, ownerClientOrderId: null },
    });
  }
}

describe('an equity reading with nothing new', () => {
  it('is the kept one while nothing moved, and a fresh one after a new order, a fill, a balance or a price move', async () => {
    const rig = new Rig();
    const first = await rig.check();
    const again = await rig.check();
    expect(again.r.journal).toBe(first.r.journal);
    expect(again.r.equity).toBe(first.r.equity);
    const steps: { name: string; change: () => void }[] = [
      { name: 'order', change: () => rig.order('g-1', '90') },
      { name: 'fill', change: () => rig.fill('5', '100') },
      { name: 'balance', change: () => (rig.usdt = '995') },
      { name: 'price', change: () => (rig.price = '101') },
    ];
    let last = again;
    for (const step of steps) {
      step.change();
      const now = await rig.check();
      expect(text(now.r.equity), step.name).toEqual(text(now.scratch));
      expect(now.r.equity.total.eq(last.r.equity.total), step.name).toBe(false);
      const kept = await rig.check();
      expect(kept.r.equity, step.name).toBe(now.r.equity);
      last = now;
    }
    expect(rig.breaches).toEqual([]);
  });

  it('a price move past the drawdown limit with the same journal and balances trips the switch', async () => {
    const rig = new Rig();
    rig.fill('5', '100');
    const before = await rig.check();
    await rig.check();
    expect(rig.breaches).toEqual([]);
    rig.price = '70';
    const after = await rig.check();
    expect(after.r.journal).toBe(before.r.journal);
    expect(text(after.r.equity)).toEqual(text(after.scratch));
    expect(rig.breaches.length).toBe(1);
    // Still below the limit at the next check: the switch is told again, as it would be from scratch.
    await rig.check();
    expect(rig.breaches.length).toBe(2);
  });

  it('balances equal in value but not in keys are not the same', async () => {
    const rig = new Rig();
    const first = await rig.check();
    const venue = rig.venue.bind(rig);
    rig.venue = (): VenueReading => ({ ...venue(), balances: { USDT: dec(rig.usdt), BTC: dec('0'), ETH: dec('0') } });
    const second = await rig.check();
    expect(second.r.equity).not.toBe(first.r.equity);
    expect(text(second.r.equity)).toEqual(text(second.scratch));
  });

  it('keeps the valuation across moves of markets it does not price, and values afresh when any priced input moved (random runs)', async () => {
    const moves = ['eth', 'perp', 'spot', 'spot-gone', 'btc', 'btc-zero', 'usdt', 'fill', 'order'] as const;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...moves), { minLength: 1, maxLength: 14 }), async (run) => {
        const rig = new Rig();
        let last = (await rig.check()).r;
        let n = 0;
        for (const move of run) {
          n++;
          const priced = { perp: last.journal.positions.length > 0, spot: !dec(rig.btc).isZero() };
          let unpriced = false;
          if (move === 'eth') [rig.eth, unpriced] = [String(10 + n), true];
          if (move === 'perp') [rig.price, unpriced] = [String(100 + n), !priced.perp];
          if (move === 'spot') [rig.spot, unpriced] = [String(100 + n), !priced.spot];
          if (move === 'spot-gone') [rig.spot, unpriced] = [undefined, !priced.spot || rig.spot === undefined];
          if (move === 'btc') rig.btc = String(n);
          if (move === 'btc-zero') [rig.btc, unpriced] = ['0', dec(rig.btc).isZero()];
          if (move === 'usdt') rig.usdt = String(1000 + n);
          if (move === 'fill') rig.fill('1', String(100 + n));
          if (move === 'order') rig.order(`o-${n}`, '90');
          const now = await rig.check();
          expect(text(now.r.equity), move).toEqual(text(now.scratch));
          if (unpriced) expect(now.r.equity, move).toBe(last.equity);
          last = now.r;
        }
      }),
      { numRuns: 60 },
    );
  });
});
