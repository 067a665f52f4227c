/**
 * A realistic backtest result for the report tests, built with the real metrics functions: two
 * markets on a seeded random walk (15-minute points over three days), two strategies trading
 * both sides, equity marked from the fills. One strategy id, the config path and an order id
 * carry HTML that must stay inert text.
 */
import { Decimal, sum } from '../../src/core/decimal.js';
import { computeMetrics, positionSpans, roundTrips } from '../../src/backtest/metrics.js';
import type { BacktestFill, BacktestResult, EquityPoint, PricePoint } from '../../src/backtest/result.js';

export const INJECTION_STRATEGY = '<img src=x onerror="window.pwned=1">';
export const FROM_MS = Date.UTC(2026, 0, 5);
const STEP_MS = 15 * 60_000;
const STEPS = 3 * 96;

/** Deterministic walk: a linear congruential generator, prices in cents. */
function walk(start: number, seed: number): PricePoint[] {
  let x = seed;
  let cents = start * 100;
  return Array.from({ length: STEPS }, (_, i) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    cents += Math.round(((x / 2147483648) - 0.5) * start * 0.8);
    return { timeMs: FROM_MS + i * STEP_MS, price: new Decimal(cents).div(100).toFixed() };
  });
}

interface Plan {
  strategy: string;
  market: string;
  every: number;
  amount: string;
}

const PLANS: Plan[] = [
  { strategy: 'grid-btc', market: 'BTC_USDT', every: 9, amount: '0.01' },
  { strategy: INJECTION_STRATEGY, market: 'ETH_USDT', every: 13, amount: '0.2' },
  { strategy: INJECTION_STRATEGY, market: 'BTC_USDT', every: 31, amount: '0.005' },
];

/** Alternating buys and sells (the second plan starts short), fee 0.1% of the quote amount. */
function fillsFor(plan: Plan, prices: readonly PricePoint[], n: number): BacktestFill[] {
  const out: BacktestFill[] = [];
  for (let i = plan.every, k = 0; i < prices.length; i += plan.every, k++) {
    const p = prices[i] as PricePoint;
    const side = (k + n) % 2 === 0 ? 'buy' : 'sell';
    const fee = new Decimal(plan.amount).mul(p.price).mul('0.001').toDecimalPlaces(8).toFixed();
    out.push({ timeMs: p.timeMs, strategy: plan.strategy, market: plan.market, side, price: p.price, amount: plan.amount, fee, orderId: `${n}-${k}` });
  }
  return out;
}

function markedEquity(fills: readonly BacktestFill[], prices: Record<string, PricePoint[]>): EquityPoint[] {
  const btc = prices['BTC_USDT'] as PricePoint[];
  return btc.map((point, i) => {
    const done = fills.filter((f) => f.timeMs <= point.timeMs);
    const cash = sum(done.map((f) => new Decimal(f.amount).mul(f.price).mul(f.side === 'sell' ? 1 : -1).minus(f.fee)));
    const marked = sum(Object.entries(prices).map(([m, series]) => {
      const held = sum(done.filter((f) => f.market === m).map((f) => (f.side === 'buy' ? new Decimal(f.amount) : new Decimal(f.amount).neg())));
      return held.mul((series[i] as PricePoint).price);
    }));
    return { timeMs: point.timeMs, equity: new Decimal(10_000).plus(cash).plus(marked).toFixed() };
  });
}

export function reportFixture(): BacktestResult {
  const prices = { BTC_USDT: walk(60_000, 7), ETH_USDT: walk(3_000, 11) };
  const fills = PLANS.flatMap((p, n) => fillsFor(p, prices[p.market as keyof typeof prices], n)).sort((a, b) => a.timeMs - b.timeMs);
  fills[0] = { ...fills[0] as BacktestFill, orderId: '</script><script>window.pwned=3</script>' };
  const trades = roundTrips(fills);
  const equity = markedEquity(fills, prices);
  const toMs = FROM_MS + STEPS * STEP_MS;
  const metricsOf = (only: (s: string) => boolean) => {
    const fs = fills.filter((f) => only(f.strategy));
    return computeMetrics({
      equity, fills: fs, trades: trades.filter((t) => only(t.strategy)), flexEarnings: '1.25', unrealisedPnl: '0', orders: fs.length + 3,
      positionSpans: positionSpans(fs, toMs), fromMs: FROM_MS, toMs,
    });
  };
  return {
    version: 1,
    inputs: {
      config: 'config/<script>window.pwned=2</script>.json',
      configSha256: 'a'.repeat(64),
      prices: [{ file: 'data/prices/BTC_USDT.csv', sha256: 'b'.repeat(64) }, { file: 'data/prices/ETH_USDT.csv', sha256: 'c'.repeat(64) }],
      fromMs: FROM_MS,
      toMs,
      fillModel: { makerFee: '0.001', takerFee: '0.001', fillWhen: 'price trades through', volumePerStep: '0.5' },
    },
    total: metricsOf(() => true),
    strategies: { 'grid-btc': metricsOf((s) => s === 'grid-btc'), [INJECTION_STRATEGY]: metricsOf((s) => s === INJECTION_STRATEGY) },
    equity,
    prices,
    fills,
    trades,
  };
}
