/**
 * A CSV market's step that reaches no resting order and no OCO leg is passed without matching its
 * legs (Market.canPass, csv-market.ts), and in a step that does, a leg that reaches none is entered
 * without being matched (Venue.walkStep). Passing must give exactly what matching every leg gives:
 * two venues run the same rows and the same orders, one passing such steps, the other matching
 * every leg of every step; after each step their prices, 24 h ranges, fillable volumes, balances,
 * orders, OCO records and deals are the same. The rows cover both shapes (time,price and OHLCV),
 * steps without a row (gaps) and with two, with and without volume (a small share caps fills),
 * two markets on one path with different ticks, and legs that reach orders and brackets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvMarket } from '../../../src/backtest/csv-market.js';
import type { FillModel } from '../../../src/backtest/fill-model.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import type { Account } from '../../../src/simulator/account.js';
import type { NearSpan } from '../../../src/simulator/near.js';
import type { PriceSpan } from '../../../src/simulator/types.js';
import { Venue, type PlaceInput } from '../../../src/simulator/venue.js';

const T0 = 1_704_067_200_000;
const MIN = 60_000;
const SPOT = { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '1', volatility: '0' };
const PERP = { ...SPOT, name: 'BTC_PERP', tick: '0.1' };

/** Steps passed and steps matched leg by leg; of the latter's candle legs, those entered and those matched. */
const seen = { passed: 0, matched: 0, legsEntered: 0, legsMatched: 0 };

/** Matches every leg of every step by exact comparisons alone: the reference. */
class FullCsvMarket extends CsvMarket {
  override canPass(): boolean {
    return false;
  }

  override nearLegOf(): NearSpan | undefined {
    return undefined;
  }
}

class CountedCsvMarket extends CsvMarket {
  /**
   * How often the venue asked each candle leg of the step for its doubles: at most once in its
   * reach test (always, for a leg that reaches something) and once when it matches the leg. So
   * two asks: a leg matched; fewer: a leg skipped.
   */
  private asked = new Map<PriceSpan, number>();

  override passPath(): void {
    seen.passed++;
    super.passPath();
  }

  override pathOf(span: PriceSpan): readonly PriceSpan[] {
    seen.matched++;
    const legs = super.pathOf(span);
    this.asked = new Map(legs.filter((leg) => 'at' in leg).map((leg) => [leg, 0]));
    return legs;
  }

  override enterLeg(leg: PriceSpan): void {
    if (this.asked.has(leg)) seen.legsEntered++;
    super.enterLeg(leg);
  }

  override nearLegOf(leg: PriceSpan): NearSpan | undefined {
    const n = this.asked.get(leg);
    if (n !== undefined) {
      this.asked.set(leg, n + 1);
      if (n + 1 === 2) seen.legsMatched++;
    }
    return super.nearLegOf(leg);
  }
}

interface Step {
  /** Rows in the step: none (a gap), one, or two (the second half a minute later). */
  rows: Array<{ open: number; up: number; down: number; close: number; volume: number }>;
  orders: Array<{ side: 'buy' | 'sell'; offset: number; amount: number; perp: boolean; bracket: boolean }>;
  cancel: number | null;
}

/** A price in hundredths around 100 (so the perpetual's tick of 0.1 rounds some of them). */
const cents = (n: number): Decimal => new Decimal(n).div(100);

function rowsOf(steps: Step[], candles: boolean, volumes: boolean): PriceRow[] {
  const out: PriceRow[] = [];
  steps.forEach((s, i) =>
    s.rows.forEach((r, k) => {
      const close = cents(r.close);
      const row: PriceRow = { timeMs: T0 + (i + 1) * MIN - (s.rows.length - 1 - k) * 30_000, price: close, volume: volumes ? dec(String(r.volume)) : null };
      const high = Math.max(r.open, r.close) + r.up;
      const low = Math.max(1, Math.min(r.open, r.close) - r.down);
      if (candles) row.candle = { open: cents(r.open), high: cents(high), low: cents(low) };
      out.push(row);
    }),
  );
  return [{ timeMs: T0, price: dec('100'), volume: volumes ? dec('1') : null }, ...out];
}

function venueOf(rows: PriceRow[], model: FillModel, Kind: typeof CsvMarket): { clock: VirtualClock; venue: Venue; account: Account } {
  const clock = new VirtualClock(T0);
  const venue = new Venue(clock, 7, [SPOT, PERP], MIN, Number.MAX_SAFE_INTEGER);
  for (const opts of [SPOT, PERP]) venue.markets.set(opts.name, new Kind({ ...opts, makerFee: '0.001', takerFee: '0.002' }, 7, { rows, startMs: T0, stepMs: MIN, model }));
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
  return { clock, venue, account };
}

function place(venue: Venue, account: Account, o: Step['orders'][number], n: number): string {
  const m = venue.requireMarket(o.perp ? 'BTC_PERP' : 'BTC_USDT');
  const price = m.price.plus(m.tick.mul(o.offset * (o.side === 'buy' ? -1 : 1)));
  const away = (k: number): Decimal => price.plus(m.tick.mul(o.side === 'buy' ? k : -k));
  const input: PlaceInput = {
    market: m.name, side: o.side, amount: new Decimal(o.amount).div(1000), price, postOnly: false, ioc: false, rpi: false,
    clientOrderId: `c${n}`, kind: o.perp ? 'collateral' : 'spot',
    ...(o.perp && o.bracket ? { stopLoss: away(-40), takeProfit: away(40) } : {}),
  };
  try {
    return String(venue.place(account, input).orderId);
  } catch (err) {
    return `refused ${(err as Error).message}`;
  }
}

/** Everything a step can change, as text. */
function stateOf(venue: Venue, account: Account): unknown {
  const text = (d: Decimal): string => d.toFixed();
  const markets = [...venue.markets.values()].map((m) => [m.name, text(m.price), text(m.high), text(m.low), text(m.volumeLeft), text(m.stockVolume)]);
  const map = (m: ReadonlyMap<string, Decimal>): string[][] => [...m].map(([k, v]) => [k, text(v)]);
  const orders = [...account.orders.values()].map((o) => [o.orderId, o.status, text(o.left), o.mtimeMs]);
  const positions = [...account.positions.values()].map((p) => [p.market, text(p.amount), text(p.cost), text(p.margin)]);
  const deals = account.deals.map((d) => [d.id, d.orderId, d.role, text(d.amount), text(d.price), text(d.fee), d.timeMs]);
  const conditionals = [...account.conditionals.values()].map((c) => [c.id, c.type, c.active]);
  return { markets, balances: map(account.balances), locked: map(account.locked), orders, positions, deals, conditionals, changes: account.changes };
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  rows: fc.array(
    fc.record({
      open: fc.integer({ min: 9_000, max: 11_000 }),
      up: fc.integer({ min: 0, max: 300 }),
      down: fc.integer({ min: 0, max: 300 }),
      close: fc.integer({ min: 9_000, max: 11_000 }),
      volume: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 2 },
  ),
  orders: fc.array(
    fc.record({
      side: fc.constantFrom('buy' as const, 'sell' as const),
      offset: fc.integer({ min: -5, max: 400 }),
      amount: fc.integer({ min: 1, max: 4000 }),
      perp: fc.boolean(),
      bracket: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  cancel: fc.option(fc.nat(), { nil: null }),
});

describe('passing a CSV step that reaches nothing', () => {
  it('gives what matching each leg gives, step by step', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 25 }), fc.boolean(), fc.boolean(), fc.constantFrom('through' as const, 'at' as const), (steps, candles, volumes, touch) => {
        const model: FillModel = { touch, volumeShare: dec('0.3'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.002') };
        const rows = rowsOf(steps, candles, volumes);
        const fast = venueOf(rows, model, CountedCsvMarket);
        const full = venueOf(rows, model, FullCsvMarket);
        let n = 0;
        steps.forEach((s, i) => {
          for (const o of s.orders) {
            n++;
            expect(place(fast.venue, fast.account, o, n)).toBe(place(full.venue, full.account, o, n));
          }
          const open = fast.account.openOrders();
          const victim = s.cancel === null || open.length === 0 ? undefined : open[s.cancel % open.length];
          if (victim !== undefined) {
            for (const v of [fast, full]) v.venue.cancel(v.account, victim.market, victim.orderId, undefined);
          }
          for (const v of [fast, full]) {
            v.clock.advanceTo(T0 + (i + 1) * MIN);
            v.venue.catchUp();
          }
          expect(stateOf(fast.venue, fast.account)).toEqual(stateOf(full.venue, full.account));
        });
      }),
      { numRuns: 300 },
    );
    // Every path was taken: steps passed, and steps whose legs reached something matched.
    expect(seen.passed).toBeGreaterThan(100);
    expect(seen.matched).toBeGreaterThan(100);
    // And of the candles' legs in steps matched, some matched and some skipped (they reached nothing).
    expect(seen.legsMatched).toBeGreaterThan(100);
    expect(seen.legsEntered - seen.legsMatched).toBeGreaterThan(100);
  });

  it('matches a candle whose low reaches a resting buy, and fills it at its limit', () => {
    const steps: Step[] = [{ rows: [{ open: 10_000, up: 0, down: 200, close: 10_000, volume: 3 }], orders: [], cancel: null }];
    const model: FillModel = { touch: 'through', volumeShare: dec('1'), volumePerStep: dec('1'), makerFee: dec('0'), takerFee: dec('0') };
    const v = venueOf(rowsOf(steps, true, true), model, CsvMarket);
    place(v.venue, v.account, { side: 'buy', offset: 100, amount: 1000, perp: false, bracket: false }, 1);
    v.clock.advanceTo(T0 + MIN);
    v.venue.catchUp();
    // Open and close at 100, the low at 98: the buy at 99 is reached on the leg down only.
    expect(v.account.deals.map((d) => [d.side, d.price.toFixed(), d.amount.toFixed()])).toEqual([['buy', '99', '1']]);
  });
});
