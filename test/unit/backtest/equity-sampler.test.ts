/**
 * The run's equity sample (src/backtest/equity-sampler.ts) keeps the sum's terms while the
 * account's amounts stay and re-prices them as prices move: it must give `accountEquity`'s total
 * (the full path, itself checked against the equity rule in account-equity.test.ts) to the last
 * digit after any sequence of price moves and account changes, including the changes it must not
 * skip: an amount replaced by an equal one, an asset added or dropped, a flex record's status or
 * amount changed in place, a position moved while nothing else did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { accountEquity } from '../../../src/backtest/equity.js';
import { EquitySampler } from '../../../src/backtest/equity-sampler.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { applyPositionFill } from '../../../src/simulator/positions.js';
import { Venue } from '../../../src/simulator/venue.js';

const T0 = Date.UTC(2024, 0, 1);

function setUp(): { venue: Venue; account: ReturnType<Venue['addAccount']> } {
  const perp = { name: 'BTC_PERP', startPrice: '60000', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '5', volumePerStep: '1' };
  const venue = new Venue(new ManualClock(T0), 7, [...defaultMarkets(), perp].map((m) => ({ ...m, volatility: '0' })), 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '100000.123456789', BTC: '1.5', XYZ: '42', ETH: '0' } });
  return { venue, account };
}

type Change = ['price' | 'same-price' | 'balance' | 'hold' | 'position' | 'flex' | 'same' | 'drop' | 'none', string, number];

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.tuple(fc.constant('price' as const), fc.constantFrom('BTC_USDT', 'ETH_USDT', 'BTC_PERP'), fc.integer({ min: 1, max: 99_999 })),
  fc.tuple(fc.constant('same-price' as const), fc.constantFrom('BTC_USDT', 'ETH_USDT', 'BTC_PERP'), fc.constant(0)),
  fc.tuple(fc.constant('balance' as const), fc.constantFrom('USDT', 'BTC', 'XYZ', 'ETH', 'SOL'), fc.integer({ min: 0, max: 99_999 })),
  fc.tuple(fc.constant('hold' as const), fc.constantFrom('USDT', 'BTC', 'ETH'), fc.integer({ min: -50, max: 50 })),
  fc.tuple(fc.constant('position' as const), fc.constantFrom('buy', 'sell'), fc.integer({ min: 1, max: 500 })),
  fc.tuple(fc.constant('flex' as const), fc.constantFrom('USDT', 'BTC'), fc.integer({ min: 0, max: 3 })),
  fc.tuple(fc.constant('same' as const), fc.constantFrom('USDT', 'BTC'), fc.constant(0)),
  fc.tuple(fc.constant('drop' as const), fc.constantFrom('USDT', 'BTC', 'XYZ', 'SOL'), fc.constant(0)),
  fc.tuple(fc.constant('none' as const), fc.constant(''), fc.constant(0)),
);

function apply(venue: Venue, account: ReturnType<Venue['addAccount']>, [kind, name, n]: Change): void {
  const perp = venue.requireMarket('BTC_PERP');
  const d = new Decimal(n).div(100);
  if (kind === 'price') venue.requireMarket(name).price = d.plus('0.01');
  // The same value as a new object: a price step whose row repeats the last close.
  else if (kind === 'same-price') venue.requireMarket(name).price = new Decimal(venue.requireMarket(name).price);
  else if (kind === 'balance') account.balances.set(name, d);
  else if (kind === 'hold') account.locked.set(name, account.heldOf(name).plus(d));
  else if (kind === 'position') applyPositionFill(account, perp, 'BOTH', name as 'buy' | 'sell', d.div(100), perp.price);
  else if (kind === 'same') account.balances.set(name, new Decimal(account.balance(name)));
  else if (kind === 'drop') account.balances.delete(name);
  else if (kind === 'flex') flexChange(account, name, n);
}

function flexChange(account: ReturnType<Venue['addAccount']>, currency: string, n: number): void {
  if (n === 0 || account.flex.length === 0) {
    account.flex.push({ planId: 'p', investmentId: `i${account.flex.length}`, currency, amount: dec('10.5'), dailyRate: dec('0.0001'), status: 'ACTIVE' });
    return;
  }
  const f = account.flex[n % account.flex.length] as (typeof account.flex)[number];
  if (n === 1) f.status = f.status === 'ACTIVE' ? 'CLOSED' : 'ACTIVE';
  else f.amount = f.amount.plus('0.00012345');
}

describe('EquitySampler', () => {
  it('property: gives accountEquity\'s total, digit for digit, as prices and the account change in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 40 }), (steps) => {
        const { venue, account } = setUp();
        const sampler = new EquitySampler(venue, account, 'USDT');
        expect(sampler.equity().toFixed()).toBe(accountEquity(venue, account, 'USDT').toFixed());
        for (const step of steps) {
          for (const c of step) apply(venue, account, c);
          const fast = sampler.equity();
          const full = accountEquity(venue, account, 'USDT');
          expect(fast.toFixed()).toBe(full.toFixed());
          expect(fast.eq(full)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('in another equity asset too (an asset without a market counts nothing)', () => {
    const { venue, account } = setUp();
    const sampler = new EquitySampler(venue, account, 'BTC');
    for (const c of [['price', 'BTC_USDT', 4_000_000], ['balance', 'ETH', 300], ['price', 'ETH_USDT', 300_000], ['drop', 'USDT', 0]] as Change[]) {
      apply(venue, account, c);
      expect(sampler.equity().toFixed()).toBe(accountEquity(venue, account, 'BTC').toFixed());
    }
  });

  it('answers the last total when nothing moved, and re-prices when only a price did', () => {
    const { venue, account } = setUp();
    const sampler = new EquitySampler(venue, account, 'USDT');
    const first = sampler.equity();
    // Nothing changed: the very same total (no work done again).
    expect(sampler.equity()).toBe(first);
    // A price of a held asset moved, the amounts did not: a new total, the full path's.
    const up = dec('61000.01').minus(venue.requireMarket('BTC_USDT').price);
    apply(venue, account, ['price', 'BTC_USDT', 6_100_000]);
    const moved = sampler.equity();
    expect(moved).not.toBe(first);
    expect(moved.toFixed()).toBe(accountEquity(venue, account, 'USDT').toFixed());
    // Only the BTC term moved: 1.5 BTC held, its price up by `up`.
    expect(moved.minus(first).toFixed()).toBe(dec('1.5').mul(up).toFixed());
    // A position moves the total with its mark even when no amount and no term's price changed.
    apply(venue, account, ['position', 'buy', 30]);
    const withPosition = sampler.equity();
    apply(venue, account, ['price', 'BTC_PERP', 6_200_000]);
    expect(sampler.equity().eq(withPosition)).toBe(false);
    expect(sampler.equity().toFixed()).toBe(accountEquity(venue, account, 'USDT').toFixed());
  });
});
