/**
 * Catch-up after idle time (venue.ts): the work of one catch-up is bounded whatever the gap, a
 * jump matches resting orders and OCO legs against the skipped path's range, and the result is a
 * function of the seed and the clock readings.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import type { MarketOptions } from '../../../src/simulator/options.js';
import type { Account } from '../../../src/simulator/account.js';
import { Venue, type PlaceInput } from '../../../src/simulator/venue.js';
import { tempDir } from '../../support/temp-dir.js';

const HOUR = 3_600_000;
// 00:10 UTC: six hours on, no midnight has reset the 24 h statistics the tests read.
const T0 = 1_699_920_600_000;

const MARKETS: MarketOptions[] = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '0', volumePerStep: '0.3', volatility: '0.001', pricePath: 'btc' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '0', volumePerStep: '0.3', volatility: '0.001', pricePath: 'btc' },
];

function venueAt(clock: ManualClock, seed = 5): { venue: Venue; account: Account } {
  const venue = new Venue(clock, seed, MARKETS, 1000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
  return { venue, account };
}

function order(market: string, side: Side, price: string, extra: Partial<PlaceInput> = {}): PlaceInput {
  return {
    market, side, amount: new Decimal('0.5'), price: new Decimal(price), postOnly: false, ioc: false, rpi: false, clientOrderId: '',
    kind: market.endsWith('_PERP') ? 'collateral' : 'spot', ...extra,
  };
}

/** Counts per-step price moves of every market of `venue`. */
function countSteps(venue: Venue): { steps: number } {
  const counter = { steps: 0 };
  for (const m of venue.markets.values()) {
    const advance = m.advance.bind(m);
    m.advance = () => {
      counter.steps++;
      return advance();
    };
  }
  return counter;
}

describe('catch-up after idle time', () => {
  it('walks a short gap step by step', () => {
    const clock = new ManualClock(T0);
    const { venue } = venueAt(clock);
    const counter = countSteps(venue);
    clock.advance(10_000);
    venue.catchUp();
    expect(counter.steps).toBe(10 * MARKETS.length);
  });

  it('does no per-step work for six idle hours with many resting orders', () => {
    const clock = new ManualClock(T0);
    const { venue, account } = venueAt(clock);
    for (let i = 0; i < 200; i++) venue.place(account, order('BTC_USDT', 'buy', (50 + i * 0.01).toFixed(2), { amount: new Decimal('0.001') }));
    const counter = countSteps(venue);
    clock.advance(6 * HOUR);
    venue.catchUp();
    expect(counter.steps).toBeLessThanOrEqual(venue.maxWalkSteps * MARKETS.length);
    // Caught up to the clock: the next catch-up a step later walks exactly one step.
    clock.advance(1000);
    const before = counter.steps;
    venue.catchUp();
    expect(counter.steps - before).toBe(MARKETS.length);
  });

  it('fills a resting order the jumped path reached, at its own price and the last step time, and leaves one it did not', () => {
    const clock = new ManualClock(T0);
    const { venue, account } = venueAt(clock);
    const near = venue.place(account, order('BTC_USDT', 'buy', '99.5'));
    const far = venue.place(account, order('BTC_USDT', 'buy', '1'));
    const sell = venue.place(account, order('BTC_USDT', 'sell', '100.5'));
    clock.advance(6 * HOUR + 500);
    venue.catchUp();
    const m = venue.requireMarket('BTC_USDT');
    // 6 h at 0.1 % per step: the path's range spans several percent, so both near orders were reached.
    expect(m.low.lte(new Decimal('99.5')) && m.high.gte(new Decimal('100.5'))).toBe(true);
    expect([near.status, sell.status, far.status]).toEqual(['FILLED', 'FILLED', 'NEW']);
    const deals = account.deals.filter((d) => d.orderId === near.orderId);
    expect(deals.map((d) => [d.price.toFixed(), d.role, d.timeMs])).toEqual([['99.5', 1, T0 + 6 * HOUR]]);
    expect(m.price.mod(m.tick).isZero() && m.low.lte(m.price) && m.price.lte(m.high)).toBe(true);
  });

  it('triggers a stop leg the jumped path crossed at its trigger price, before the take-profit', () => {
    const clock = new ManualClock(T0);
    const { venue, account } = venueAt(clock);
    const parent = venue.place(account, order('BTC_PERP', 'buy', '100', { stopLoss: new Decimal('99'), takeProfit: new Decimal('101') }));
    expect(parent.status).toBe('FILLED');
    clock.advance(6 * HOUR);
    venue.catchUp();
    const legs = [...account.orders.values()].filter((o) => o.ocoId !== undefined);
    expect(legs.map((o) => [o.type, o.status])).toEqual([['stop limit', 'FILLED'], ['limit', 'CANCELLED']]);
    const stopDeal = account.deals.find((d) => d.orderId === legs[0]?.orderId);
    expect([stopDeal?.price.toFixed(), stopDeal?.role]).toEqual(['99', 2]);
  });

  it('gives the same prices and fills for the same seed and clock, and keeps shared price paths together', () => {
    const run = (seed: number) => {
      const clock = new ManualClock(T0);
      const { venue, account } = venueAt(clock, seed);
      venue.place(account, order('BTC_USDT', 'buy', '97'));
      venue.place(account, order('BTC_USDT', 'sell', '103'));
      clock.advance(3 * HOUR);
      venue.catchUp();
      clock.advance(30_000);
      venue.catchUp();
      clock.advance(5 * HOUR);
      venue.catchUp();
      const prices = [...venue.markets.values()].map((m) => [m.price.toFixed(), m.low.toFixed(), m.high.toFixed()]);
      const deals = account.deals.map((d) => [d.orderId, d.amount.toFixed(), d.price.toFixed(), d.timeMs]);
      return { prices, deals };
    };
    const a = run(21);
    expect(run(21)).toEqual(a);
    expect(a.prices[0]).toEqual(a.prices[1]);
    expect(run(22).prices).not.toEqual(a.prices);
  });

  it('replays a CSV across a jump: the last row reached, its range seen', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(tempDir('sim-csv-'), 'p.csv');
    writeFileSync(file, ['price', '100', ...Array.from({ length: 500 }, (_, i) => String(100 + (i === 250 ? -20 : i % 7))), '104'].join('\n'));
    const clock = new ManualClock(T0);
    const venue = new Venue(clock, 1, [{ name: 'BTC_USDT', startPrice: '1', tick: '0.01', step: '0.001', minTotal: '0', priceFile: file }], 1000);
    const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } });
    const dip = venue.place(account, order('BTC_USDT', 'buy', '85', { amount: new Decimal('0.1') }));
    clock.advance(HOUR);
    venue.catchUp();
    const m = venue.requireMarket('BTC_USDT');
    expect([m.price.toFixed(), m.low.toFixed(), dip.status]).toEqual(['104', '80', 'FILLED']);
  });
});
