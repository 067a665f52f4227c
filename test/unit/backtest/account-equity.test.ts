/**
 * The sample's equity (src/backtest/equity.ts `accountEquity`) is taken straight from the
 * simulator's maps at every price step; it must be the total the equity rule gives over the same
 * state (`accountEquityParts`, equityOf over the rebuilt inputs), to the last digit, whatever the
 * account holds: several assets, an asset without a price, held amounts, positions with and
 * without a price for their market, flex investments active and closed, changed one at a time or
 * several at once. The plan is kept per account while what it was made from stands still (it is
 * priced again when a price moves, made afresh on any other change), so each comparison is asked
 * right after a change and again with nothing changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { accountEquity, accountEquityParts } from '../../../src/backtest/equity.js';
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

function both(venue: Venue, account: ReturnType<Venue['addAccount']>, asset = 'USDT'): [string, string] {
  return [accountEquity(venue, account, asset).toFixed(), accountEquityParts(venue, account, asset).total.toFixed()];
}

describe('accountEquity', () => {
  it('equals the equity rule over the same state as the account changes', () => {
    const { venue, account } = setUp();
    const seen: [string, string][] = [both(venue, account)];
    // Held by a resting order (the simulator's locked amounts).
    venue.place(account, { clientOrderId: 'b-1', kind: 'spot', market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('50000'), postOnly: true, ioc: false, rpi: false });
    seen.push(both(venue, account));
    // A long and a short position, then the mark moves.
    const perp = venue.requireMarket('BTC_PERP');
    applyPositionFill(account, perp, 'BOTH', 'buy', dec('0.3'), dec('59000'));
    seen.push(both(venue, account));
    perp.price = dec('61234.56');
    seen.push(both(venue, account));
    // Flex: an active investment counts, a closed one does not.
    account.flex.push({ planId: 'p', investmentId: 'i1', currency: 'USDT', amount: dec('250.5'), dailyRate: dec('0.0001'), status: 'ACTIVE' });
    account.flex.push({ planId: 'p', investmentId: 'i2', currency: 'BTC', amount: dec('0.2'), dailyRate: dec('0.0001'), status: 'ACTIVE' });
    account.flex.push({ planId: 'p', investmentId: 'i3', currency: 'USDT', amount: dec('999'), dailyRate: dec('0.0001'), status: 'CLOSED' });
    seen.push(both(venue, account));
    // A position in a market the venue does not list counts its margin only.
    account.positions.set('NOPE_PERP|BOTH', { market: 'NOPE_PERP', positionSide: 'BOTH', amount: dec('2'), cost: dec('20'), margin: dec('2'), realisedPnl: dec('0') });
    seen.push(both(venue, account));
    for (const [fast, rule] of seen) expect(fast).toBe(rule);
    // Changed in place without a new decimal anywhere but the position's fields: still seen.
    const pos = account.positions.get('NOPE_PERP|BOTH') as NonNullable<ReturnType<typeof account.positions.get>>;
    pos.margin = dec('3');
    expect(both(venue, account)[0]).toBe(both(venue, account)[1]);
    expect(both(venue, account)[0]).not.toBe(seen[seen.length - 1]?.[0]);
    // A resting order moves funds from available to held (the total stays); every other change
    // moved it, so the comparisons are not of one repeated figure.
    expect(seen[1]?.[0]).toBe(seen[0]?.[0]);
    expect(new Set(seen.slice(1).map(([fast]) => fast)).size).toBe(seen.length - 1);
  });

  it('an asset without a price counts nothing, in another equity asset too', () => {
    const { venue, account } = setUp();
    const [fast, rule] = both(venue, account, 'BTC');
    expect(fast).toBe(rule);
    expect(accountEquityParts(venue, account, 'USDT').unvalued['XYZ']?.toFixed()).toBe('42');
    expect(both(venue, account)[0]).toBe(both(venue, account)[1]);
  });

  it('property: keeps giving the rule\'s total as prices, balances, held amounts, positions and flex change in any order', () => {
    const change = fc.oneof(
      fc.tuple(fc.constant('price' as const), fc.constantFrom('BTC_USDT', 'ETH_USDT', 'BTC_PERP'), fc.integer({ min: 1, max: 99_999 })),
      fc.tuple(fc.constant('balance' as const), fc.constantFrom('USDT', 'BTC', 'XYZ', 'ETH', 'SOL'), fc.integer({ min: 0, max: 99_999 })),
      fc.tuple(fc.constant('hold' as const), fc.constantFrom('USDT', 'BTC', 'ETH'), fc.integer({ min: -50, max: 50 })),
      fc.tuple(fc.constant('position' as const), fc.constantFrom('buy', 'sell'), fc.integer({ min: 1, max: 500 })),
      fc.tuple(fc.constant('flex' as const), fc.constantFrom('USDT', 'BTC'), fc.integer({ min: 0, max: 3 })),
      fc.tuple(fc.constant('same' as const), fc.constantFrom('USDT', 'BTC'), fc.constant(0)),
      fc.tuple(fc.constant('drop' as const), fc.constantFrom('USDT', 'BTC', 'XYZ', 'SOL'), fc.constant(0)),
    );
    fc.assert(
      fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30 }), (steps) => {
        const { venue, account } = setUp();
        const perp = venue.requireMarket('BTC_PERP');
        for (const step of steps) {
          for (const [kind, name, n] of step) {
            const d = new Decimal(n).div(100);
            if (kind === 'price') venue.requireMarket(name).price = d.plus('0.01');
            else if (kind === 'balance') account.balances.set(name, d);
            else if (kind === 'hold') account.locked.set(name, account.heldOf(name).plus(d));
            else if (kind === 'position') applyPositionFill(account, perp, 'BOTH', name as 'buy' | 'sell', d.div(100), perp.price);
            else if (kind === 'same') account.balances.set(name, new Decimal(account.balance(name)));
            else if (kind === 'drop') account.balances.delete(name);
            else if (n === 0 || account.flex.length === 0) account.flex.push({ planId: 'p', investmentId: `i${account.flex.length}`, currency: name, amount: dec('10.5'), dailyRate: dec('0.0001'), status: 'ACTIVE' });
            else {
              const f = account.flex[n % account.flex.length] as (typeof account.flex)[number];
              if (n === 1) f.status = f.status === 'ACTIVE' ? 'CLOSED' : 'ACTIVE';
              else f.amount = f.amount.plus('0.00012345');
            }
          }
          const [fast, rule] = both(venue, account);
          expect(fast).toBe(rule);
          // Asked again with nothing changed: the kept plan and total give the same digits.
          expect(accountEquity(venue, account, 'USDT').toFixed()).toBe(rule);
        }
      }),
      { numRuns: 200 },
    );
  });
});
