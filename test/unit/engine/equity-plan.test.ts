/**
 * The equity rule in two steps (src/engine/equity.ts: planEquity, then priceEquity) against the
 * rule written in one pass, as it read before the plan: on random inputs (zero amounts, amounts
 * longer than the 60 digits of precision, assets without a price, positions long, short and flat,
 * with and without a mark) both give the same figures to the last digit, the unvalued assets in
 * the same order; and one plan priced at new prices gives what the rule gives at those prices.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { equityOf, planEquity, positionValue, priceEquity, type Equity, type EquityInputs } from '../../../src/engine/equity.js';

const ASSETS = ['USDT', 'BTC', 'ETH', 'XYZ'] as const;
const MARKETS = ['BTC_USDT', 'ETH_USDT', 'BTC_PERP', 'ETH_PERP'] as const;

/** The rule as one pass (the shape it had before it was planned): the reference. */
function reference(i: EquityInputs): Equity {
  const unvalued: Record<string, Decimal> = {};
  const value = (asset: string, amount: Decimal): Decimal => {
    if (amount.isZero()) return ZERO;
    const price = asset === i.equityAsset ? new Decimal(1) : i.prices[`${asset}_${i.equityAsset}`];
    if (price !== undefined) return amount.mul(price);
    unvalued[asset] = (unvalued[asset] ?? ZERO).plus(amount);
    return ZERO;
  };
  const sum = (amounts: Readonly<Record<string, Decimal>>): Decimal => {
    let total = ZERO;
    for (const asset of Object.keys(amounts).sort()) total = total.plus(value(asset, amounts[asset] as Decimal));
    return total;
  };
  const unmarked: string[] = [];
  let positions = ZERO;
  for (const p of i.positions) {
    const mark = i.prices[p.market];
    if (mark === undefined && !p.amount.isZero()) unmarked.push(`${p.market}|${p.positionSide}`);
    positions = positions.plus(value(p.settleAsset, positionValue(p, mark)));
  }
  const parts = { balances: sum(i.balances), held: sum(i.held), positions, flex: sum(i.flex) };
  return { equityAsset: i.equityAsset, total: parts.balances.plus(parts.held).plus(parts.positions).plus(parts.flex), parts, unvalued, unmarked };
}

function text(e: Equity): unknown {
  const map = (m: Record<string, Decimal>): [string, string][] => Object.entries(m).map(([k, v]) => [k, v.toFixed()]);
  return { total: e.total.toFixed(), parts: map(e.parts), unvalued: map(e.unvalued), unmarked: e.unmarked };
}

/** Decimals from zero to well past 60 significant digits, either sign where `signed`. */
const amount = (signed: boolean): fc.Arbitrary<Decimal> =>
  fc
    .tuple(fc.constantFrom('0', '1', '0.5', '12345.678', '3.14159265358979323846264338327950288419716939937510582097494459230781640628'), fc.integer({ min: -4, max: 4 }), fc.boolean())
    // Built from text, not by arithmetic (which would round to 60 digits): the long one keeps all 75.
    .map(([digits, shift, neg]) => new Decimal(`${signed && neg ? '-' : ''}${digits}e${shift}`));

/** Each decimal exactly: its digits and its sign, a zero's sign included (`toFixed` prints -0 as 0). */
function exact(e: Equity): unknown {
  const one = (d: Decimal): string => `${d.isNeg() ? '-' : '+'}${d.abs().toString()}`;
  const map = (m: Record<string, Decimal>): [string, string][] => Object.entries(m).map(([k, v]) => [k, one(v)]);
  return { total: one(e.total), parts: map(e.parts), unvalued: map(e.unvalued), unmarked: e.unmarked };
}

const amounts = fc.dictionary(fc.constantFrom(...ASSETS), amount(false));
const prices = fc.dictionary(fc.constantFrom(...MARKETS), amount(false).filter((d) => !d.isZero()));
const position = fc.record({
  market: fc.constantFrom('BTC_PERP', 'ETH_PERP'),
  positionSide: fc.constantFrom('LONG' as const, 'SHORT' as const, 'BOTH' as const),
  amount: amount(true),
  cost: amount(false),
  margin: amount(false),
  settleAsset: fc.constantFrom('USDT', 'BTC', 'XYZ'),
});
/** Inputs of the rule whose amounts and prices are drawn by `a` and `p`. */
function inputsOf<A, P>(a: fc.Arbitrary<A>, p: fc.Arbitrary<P>) {
  return fc.record({
    equityAsset: fc.constantFrom('USDT', 'BTC'),
    balances: a,
    held: a,
    flex: a,
    positions: fc.array(position, { maxLength: 3 }),
    prices: p,
  });
}
const inputs = inputsOf(amounts, prices);

describe('the equity rule planned, then priced', () => {
  it('gives what the rule in one pass gives, to the last digit', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        expect(text(equityOf(i))).toEqual(text(reference(i)));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the very decimals of the rule in one pass, the sign of a zero included, at zero prices and negative amounts', () => {
    const signed = fc.dictionary(fc.constantFrom(...ASSETS), amount(true));
    const anyPrices = fc.dictionary(fc.constantFrom(...MARKETS), amount(true));
    const wide = inputsOf(signed, anyPrices);
    fc.assert(
      fc.property(wide, (i) => {
        expect(exact(equityOf(i))).toEqual(exact(reference(i)));
      }),
      { numRuns: 1000 },
    );
  });

  it('priced again at new prices, a kept plan gives what the rule gives at those prices', () => {
    fc.assert(
      fc.property(inputs, prices, (i, next) => {
        const plan = planEquity(i);
        priceEquity(plan, plan.markets.map((m) => i.prices[m]));
        const again = priceEquity(plan, plan.markets.map((m) => next[m]));
        expect(text(again)).toEqual(text(reference({ ...i, prices: next })));
      }),
      { numRuns: 300 },
    );
  });
});
