/**
 * A candle (OHLCV) is matched along its intrabar path: open, the nearer extreme, the other one,
 * close. So a stop-loss and a take-profit both inside one candle resolve in a defined order: the
 * leg on the side the price reaches first executes, the other is cancelled (OCO). A plain
 * time,price row is matched as before, at its one price.
 */
import { describe, expect, it } from 'vitest';
import { CsvMarket } from '../../../src/backtest/csv-market.js';
import type { FillModel } from '../../../src/backtest/fill-model.js';
import { candlePath } from '../../../src/backtest/intrabar.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { Account } from '../../../src/simulator/account.js';
import { Venue } from '../../../src/simulator/venue.js';

const T0 = 1_704_067_200_000;
const MIN = 60_000;
const OPTS = { name: 'BTC_PERP', startPrice: '100', tick: '0.1', step: '0.001', minAmount: '0.001', minTotal: '1', volatility: '0' };
const MODEL: FillModel = { touch: 'through', volumeShare: dec('1'), volumePerStep: dec('10'), makerFee: dec('0'), takerFee: dec('0') };

function candle(i: number, open: string, high: string, low: string, close: string): PriceRow {
  return { timeMs: T0 + i * MIN, price: dec(close), volume: dec('10'), candle: { open: dec(open), high: dec(high), low: dec(low) } };
}

/** A long of 1 opened at 100 with a stop-loss at 96 and a take-profit at 103, then one step of `next`. */
function bracketThrough(next: PriceRow): { account: Account; venue: Venue } {
  const clock = new VirtualClock(T0);
  const venue = new Venue(clock, 1, [OPTS], MIN, Number.MAX_SAFE_INTEGER);
  const rows = [candle(0, '100', '100', '100', '100'), next];
  venue.markets.set('BTC_PERP', new CsvMarket({ ...OPTS, makerFee: '0', takerFee: '0' }, 1, { rows, startMs: T0, stepMs: MIN, model: MODEL }));
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '100000' } });
  venue.place(account, {
    market: 'BTC_PERP', side: 'buy', amount: dec('1'), price: dec('100'), postOnly: false, ioc: false, rpi: false,
    clientOrderId: 'entry', kind: 'collateral', stopLoss: dec('96'), takeProfit: dec('103'),
  });
  clock.advanceTo(T0 + MIN);
  venue.catchUp();
  return { account, venue };
}

/** The exits that executed: [side, price] of every deal after the entry. */
const exits = (a: Account): string[][] => a.deals.slice(1).map((d) => [d.side, d.price.toFixed()]);

describe('intrabar path', () => {
  it('goes open, nearer extreme, other extreme, close; at equal distance the low first', () => {
    const c = { open: dec('100'), high: dec('104'), low: dec('95') };
    expect(candlePath(c, dec('101')).map((d) => d.toFixed())).toEqual(['100', '104', '95', '101']);
    expect(candlePath({ ...c, high: dec('106'), low: dec('97') }, dec('101')).map((d) => d.toFixed())).toEqual(['100', '97', '106', '101']);
    expect(candlePath({ ...c, high: dec('105'), low: dec('95') }, dec('101')).map((d) => d.toFixed())).toEqual(['100', '95', '105', '101']);
  });

  it('a candle reaching both legs, its high nearer the open: the take-profit executes, the stop-loss does not', () => {
    const { account } = bracketThrough(candle(1, '100', '104', '95', '101'));
    expect(exits(account)).toEqual([['sell', '103']]);
  });

  it('the same range, its low nearer the open: the stop-loss executes, the take-profit does not', () => {
    const { account } = bracketThrough(candle(1, '100', '106', '95.5', '101'));
    // Triggered on the leg down to the low, it takes at the price there (not at the close, 101).
    expect(exits(account)).toEqual([['sell', '95.5']]);
  });

  it('a time,price row has one price: a close between both legs executes neither', () => {
    const { account } = bracketThrough({ timeMs: T0 + MIN, price: dec('101'), volume: dec('10') });
    expect(exits(account)).toEqual([]);
  });
});
