/**
 * The in-process venue's balances reply read as the client's model (`balanceModel`,
 * src/backtest/in-process-balances.ts, through the api's `mainBalance`) is what the client's
 * parser reads from the balance route's wire reply: the same assets in the same order, the same
 * values and texts, after random credits, holds and releases on assets of many names (integer-like,
 * lower case, non-ASCII) and amounts of many scales (negative ones included: the parser's error).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { balanceModel } from '../../../src/backtest/in-process-balances.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { parseBalanceMap } from '../../../src/exchange/parse-account.js';
import { balance } from '../../../src/simulator/routes/account.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';

const ASSETS = ['USDT', 'BTC', 'ETH', 'btc', '1INCH', '123', '0', 'ÄX', 'A_B', 'Z.Y', 'a-b', 'EUR'];

const decimal: fc.Arbitrary<Decimal> = fc
  .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 40n }), fc.integer({ min: 0, max: 40 }))
  .map(([n, scale]) => new Decimal(n.toString()).div(new Decimal(10).pow(scale)));

const op = fc.record({ kind: fc.constantFrom('credit' as const, 'hold' as const, 'release' as const), asset: fc.constantFrom(...ASSETS), amount: decimal });

function outcome(read: () => Map<string, Decimal> | undefined): unknown {
  try {
    const m = read();
    return m === undefined ? undefined : [...m].map(([k, v]) => [k, v.toFixed(), v.toString(), v.isNeg()]);
  } catch (err) {
    return { error: String(err), name: (err as Error).name };
  }
}

describe('balanceModel', () => {
  it('property: the api reads the balances as the client parses the wire reply', async () => {
    let modelled = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), fc.boolean(), async (ops, plainOnly) => {
        const venue = new Venue(new ManualClock(Date.UTC(2024, 0, 1)), 1, defaultMarkets(), 60_000);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000', BTC: '0.5' } });
        for (const o of ops) {
          const asset = plainOnly ? (o.asset.toUpperCase().replace(/[^A-Z]/g, '') || 'X') : o.asset;
          const amount = plainOnly ? o.amount.abs() : o.amount;
          if (o.kind === 'credit' || plainOnly) account.credit(asset, amount);
          else if (o.kind === 'hold') account.hold(asset, amount);
          else account.release(asset, amount);
        }
        const ctx = { venue, options: { flatHistoryWithMarket: false } };
        const wire = outcome(() => parseBalanceMap('mainBalance', balance(ctx, account, {}).body));
        const api = inProcessApi(venue, account);
        let read: unknown;
        try {
          read = outcome(await api.mainBalance().then((m) => () => m as Map<string, Decimal>));
        } catch (err) {
          read = { error: String(err), name: (err as Error).name };
        }
        expect(read).toEqual(wire);
        expect(api.received()).toBe(1);
        if (balanceModel(account) !== undefined) modelled++;
      }),
      { numRuns: 1500 },
    );
    expect(modelled).toBeGreaterThan(200);
  });

  it('falls back to the wire form for what it cannot tell', () => {
    const venue = new Venue(new ManualClock(Date.UTC(2024, 0, 1)), 1, defaultMarkets(), 60_000);
    const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '10', BTC: '1' } });
    expect([...(balanceModel(account) ?? [])].map(([k]) => k)).toEqual(['BTC', 'USDT']);
    account.credit('123', new Decimal(1));
    expect(balanceModel(account)).toBeUndefined();
  });
});
