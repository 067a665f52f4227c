/**
 * The fill model on the simulator's own matching: a resting order fills when the CSV price trades
 * through its limit (or touches it, with `at`), at its limit as maker, capped by the step's
 * volume share (partial fills), with maker and taker fees; an order crossing at placement takes.
 */
import { describe, expect, it } from 'vitest';
import { CsvMarket } from '../../../src/backtest/csv-market.js';
import type { FillModel } from '../../../src/backtest/fill-model.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import type { Account } from '../../../src/simulator/account.js';
import { Venue } from '../../../src/simulator/venue.js';

const T0 = 1_704_067_200_000;
const MIN = 60_000;
const OPTS = { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '1', volatility: '0' };

function row(i: number, price: string, volume: string | null): PriceRow {
  return { timeMs: T0 + i * MIN, price: dec(price), volume: volume === null ? null : dec(volume) };
}

function setUp(touch: FillModel['touch'], rows: PriceRow[]): { clock: VirtualClock; venue: Venue; account: Account } {
  const model: FillModel = { touch, volumeShare: dec('0.5'), volumePerStep: dec('10'), makerFee: dec('0.001'), takerFee: dec('0.002') };
  const clock = new VirtualClock(T0);
  const venue = new Venue(clock, 1, [OPTS], MIN, Number.MAX_SAFE_INTEGER);
  venue.markets.set('BTC_USDT', new CsvMarket({ ...OPTS, makerFee: '0.001', takerFee: '0.002' }, 1, { rows, startMs: T0, stepMs: MIN, model }));
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '100000', BTC: '10' } });
  return { clock, venue, account };
}

function buy(venue: Venue, account: Account, price: string, amount = '1'): void {
  venue.place(account, {
    market: 'BTC_USDT', side: 'buy', amount: dec(amount), price: dec(price),
    postOnly: false, ioc: false, rpi: false, clientOrderId: `c${price}`, kind: 'spot',
  });
}

function at(clock: VirtualClock, venue: Venue, step: number): void {
  clock.advanceTo(T0 + step * MIN);
  venue.catchUp();
}

const dealsOf = (a: Account): string[][] => a.deals.map((d) => [String(d.role), d.amount.toFixed(), d.price.toFixed(), d.fee.toFixed()]);

describe('backtest fill model', () => {
  const path = [row(0, '100', '4'), row(1, '99.5', '4'), row(2, '99', '0.3'), row(3, '98', '4'), row(4, '97', '4')];

  it('through: a price equal to the limit does not fill; one below fills at the limit, as maker, capped by volume × share', () => {
    const { clock, venue, account } = setUp('through', path);
    buy(venue, account, '99');
    at(clock, venue, 1);
    at(clock, venue, 2);
    expect(account.deals).toHaveLength(0);
    at(clock, venue, 3);
    // 4 traded × 0.5 share = 2 ≥ 1: the whole order, at 99 (its limit), maker fee 0.1 %.
    expect(dealsOf(account)).toEqual([['1', '1', '99', '0.099']]);
  });

  it('at: touching the limit fills, and the step volume caps it into partial fills', () => {
    const { clock, venue, account } = setUp('at', path);
    buy(venue, account, '99');
    at(clock, venue, 2);
    // 0.3 traded × 0.5 = 0.15 in the step that touched 99; the rest when 98 trades.
    at(clock, venue, 3);
    expect(dealsOf(account)).toEqual([
      ['1', '0.15', '99', '0.01485'],
      ['1', '0.85', '99', '0.08415'],
    ]);
  });

  it('without a volume column each step may fill volumePerStep', () => {
    const rows = [row(0, '100', null), row(1, '98', null)];
    const { clock, venue, account } = setUp('through', rows);
    buy(venue, account, '99', '12');
    at(clock, venue, 1);
    expect(dealsOf(account)).toEqual([['1', '10', '99', '0.99']]);
  });

  it('a step without a row keeps the price and fills nothing', () => {
    const rows = [row(0, '100', '4'), row(3, '98', '4')];
    const { clock, venue, account } = setUp('through', rows);
    buy(venue, account, '99');
    at(clock, venue, 2);
    expect(venue.requireMarket('BTC_USDT').price.toFixed()).toBe('100');
    expect(account.deals).toHaveLength(0);
    at(clock, venue, 3);
    expect(account.deals).toHaveLength(1);
  });

  it('an order crossing the price at placement takes at the market price with the taker fee', () => {
    const { venue, account } = setUp('through', path);
    buy(venue, account, '101');
    expect(dealsOf(account)).toEqual([['2', '1', '100', '0.2']]);
    expect(account.balances.get('USDT')?.eq(new Decimal('100000').minus('100.2'))).toBe(true);
  });
});
