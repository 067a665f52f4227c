/**
 * The in-process venue's history read (src/backtest/in-process-venue.ts): its parsed-deal cache
 * (ParsedDeals) hands out what the client's parser makes of each deal, for every range, as a
 * fresh read does, and parses a deal once while consecutive ranges hold it. A reconciler over it
 * ends with every venue deal stored exactly once, whatever the overlap of its scans.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { dealsInRange, inProcessGateway, parseDeal, ParsedDeals } from '../../../src/backtest/in-process-venue.js';
import type { FillRange } from '../../../src/model/fills.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import type { Deal } from '../../../src/simulator/types.js';
import { Venue } from '../../../src/simulator/venue.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const T0 = 1_700_000_000_000;

function deal(id: number, timeMs: number): Deal {
  const amount = dec('0.001').mul(id);
  const price = dec('60000').plus(id);
  return { id, orderId: 1000 + id, clientOrderId: id % 2 === 0 ? `c-${id}` : '', market: 'BTC_USDT', side: id % 3 === 0 ? 'sell' : 'buy',
    role: id % 2 === 0 ? 1 : 2, amount, price, deal: amount.mul(price), fee: dec('0.01'), feeAsset: 'USDT', timeMs };
}

describe('ParsedDeals', () => {
  it('gives what a fresh read gives for overlapping ranges while deals arrive, parsing each deal once while ranges hold it', () => {
    const deals: Deal[] = [];
    let parses = 0;
    const cache = new ParsedDeals((d) => {
      parses++;
      return parseDeal(d);
    });
    let id = 0;
    let expectedParses = 0;
    // Every 30 s a scan of the last 5 min; deals arrive between scans, some in the second the
    // previous scan ended in and some at the very same ms as an earlier deal.
    for (let step = 1; step <= 30; step++) {
      const toMs = T0 + step * 30_000;
      const arrivals = [toMs - 29_500, toMs - 30_000, toMs - 30_000, toMs - 700, toMs];
      for (const t of arrivals.slice(0, 1 + (step % arrivals.length))) {
        deals.push(deal(++id, t));
        expectedParses++;
      }
      deals.sort((a, b) => a.timeMs - b.timeMs || a.id - b.id);
      const range: FillRange = { fromMs: toMs - 300_000, toMs };
      expect(cache.read(deals, range)).toEqual(dealsInRange(deals, range));
    }
    expect(id).toBeGreaterThan(50);
    expect(parses).toBe(expectedParses);
  });

  it('parses a deal again once a range left it out, and hands out frozen readings', () => {
    const deals = [deal(1, T0), deal(2, T0 + 60_000)];
    let parses = 0;
    const cache = new ParsedDeals((d) => {
      parses++;
      return parseDeal(d);
    });
    const all = cache.read(deals, { fromMs: T0, toMs: T0 + 60_000 });
    expect(all.map((f) => f.dealId)).toEqual([2, 1]);
    expect(Object.isFrozen(all[0])).toBe(true);
    expect(cache.read(deals, { fromMs: T0 + 30_000, toMs: T0 + 60_000 }).map((f) => f.dealId)).toEqual([2]);
    expect(cache.read(deals, { fromMs: T0, toMs: T0 + 60_000 })).toEqual(dealsInRange(deals, { fromMs: T0, toMs: T0 + 60_000 }));
    expect(parses).toBe(3);
  });
});

describe('reconciler over the in-process venue', () => {
  it('stores every venue deal exactly once across overlapping scans, with and without the change mark', async () => {
    for (const changeMark of [true, false]) {
      const clock = new ManualClock(T0 + 40_000);
      const venue = new Venue(clock, 7, defaultMarkets().map((m) => ({ ...m, volatility: '0' })), 60_000);
      const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '10' } });
      const gateway = inProcessGateway(inProcessApi(venue, account), account, { catchUp: () => venue.catchUp(), changeMark, historyPageSize: 3 });
      const e = buildEngine(tempDir(), gateway, clock, { reconcile: { overlapMs: 120_000 } });
      closeAfterTest(e.store);
      for (let i = 0; i < 12; i++) {
        const trade = { market: 'BTC_USDT', side: 'buy' as const, amount: dec('0.001'), price: dec('60100'), postOnly: false, ioc: false, rpi: false };
        for (let k = 0; k <= i % 3; k++) venue.place(account, { ...trade, clientOrderId: `m-${i}-${k}`, kind: 'spot' });
        clock.advance(i % 2 === 0 ? 500 : 29_500);
        await e.reconciler.reconcileOnce();
      }
      const stored = e.store.fills.all().map((f) => f.dealId).sort((a, b) => a - b);
      expect(account.deals.length).toBeGreaterThan(20);
      expect(stored).toEqual(account.deals.map((d) => d.id).sort((a, b) => a - b));
    }
  });
});
