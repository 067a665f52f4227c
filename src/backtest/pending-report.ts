/**
 * PLACEHOLDER, to be deleted at merge: minimal stand-ins for `./metrics.js` (computeMetrics,
 * roundTrips) and `./report/index.js` (renderReport), which are built separately. output.ts is
 * the one file that points here; at merge it re-exports the real modules instead.
 */
import { Decimal } from '../core/decimal.js';
import type { BacktestFill, BacktestMetrics, BacktestResult, BacktestTrade, EquityPoint } from './result.js';

interface Lot {
  amount: Decimal;
  price: Decimal;
  timeMs: number;
  feePerUnit: Decimal;
}

function closeAgainst(lot: Lot, f: BacktestFill, take: Decimal, feePerUnit: Decimal): BacktestTrade {
  const long = !lot.amount.isNeg();
  const gross = new Decimal(f.price).minus(lot.price).mul(take).mul(long ? 1 : -1);
  const fees = lot.feePerUnit.plus(feePerUnit).mul(take);
  return {
    strategy: f.strategy,
    market: f.market,
    direction: long ? 'long' : 'short',
    openedMs: lot.timeMs,
    closedMs: f.timeMs,
    amount: take.toFixed(),
    entryPrice: lot.price.toFixed(),
    exitPrice: f.price,
    pnl: gross.minus(fees).toFixed(),
  };
}

/** FIFO round trips per strategy and market: one trade per lot (part) a fill closes. */
export function roundTrips(fills: BacktestFill[]): BacktestTrade[] {
  const books = new Map<string, Lot[]>();
  const trades: BacktestTrade[] = [];
  for (const f of fills) {
    const key = `${f.strategy}\u0000${f.market}`;
    const lots = books.get(key) ?? [];
    books.set(key, lots);
    const amount = new Decimal(f.amount);
    let rest = f.side === 'buy' ? amount : amount.neg();
    const feePerUnit = new Decimal(f.fee).div(amount);
    while (!rest.isZero() && lots.length > 0 && (lots[0] as Lot).amount.isNeg() !== rest.isNeg()) {
      const lot = lots[0] as Lot;
      const take = Decimal.min(lot.amount.abs(), rest.abs());
      trades.push(closeAgainst(lot, f, take, feePerUnit));
      lot.amount = lot.amount.isNeg() ? lot.amount.plus(take) : lot.amount.minus(take);
      rest = rest.isNeg() ? rest.plus(take) : rest.minus(take);
      if (lot.amount.isZero()) lots.shift();
    }
    if (!rest.isZero()) lots.push({ amount: rest, price: new Decimal(f.price), timeMs: f.timeMs, feePerUnit });
  }
  return trades;
}

function maxDrawdown(equity: EquityPoint[]): Decimal {
  let peak: Decimal | null = null;
  let worst = new Decimal(0);
  for (const p of equity) {
    const v = new Decimal(p.equity);
    if (peak === null || v.gt(peak)) peak = v;
    if (peak.gt(0)) worst = Decimal.max(worst, peak.minus(v).div(peak));
  }
  return worst;
}

export interface MetricsInput {
  equity: EquityPoint[];
  fills: BacktestFill[];
  trades: BacktestTrade[];
  flexEarnings: string;
  unrealisedPnl: string;
  orders: number;
  positionSpans: Array<{ fromMs: number; toMs: number }>;
  fromMs: number;
  toMs: number;
}

export function computeMetrics(input: MetricsInput): BacktestMetrics {
  const fees = input.fills.reduce((s, f) => s.plus(f.fee), new Decimal(0));
  const afterFees = input.trades.reduce((s, t) => s.plus(t.pnl), new Decimal(0));
  // Approximation: the fees of still-open lots are counted as if closed.
  const realised = afterFees.plus(fees);
  const wins = input.trades.filter((t) => new Decimal(t.pnl).gt(0)).length;
  const held = input.positionSpans.reduce((s, p) => s + (p.toMs - p.fromMs), 0);
  const net = afterFees.plus(input.unrealisedPnl).plus(input.flexEarnings);
  return {
    realisedPnl: realised.toFixed(),
    fees: fees.toFixed(),
    realisedPnlAfterFees: afterFees.toFixed(),
    unrealisedPnl: input.unrealisedPnl,
    flexEarnings: input.flexEarnings,
    netPnl: net.toFixed(),
    orders: input.orders,
    fills: input.fills.length,
    trades: input.trades.length,
    winRate: input.trades.length === 0 ? null : new Decimal(wins).div(input.trades.length).toFixed(),
    maxDrawdown: maxDrawdown(input.equity).toFixed(),
    exposure: new Decimal(held).div(Math.max(1, input.toMs - input.fromMs)).toFixed(),
    sharpeDaily: null,
  };
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderReport(result: BacktestResult): string {
  const rows = Object.entries({ total: result.total, ...result.strategies })
    .map(([id, m]) => `<tr><td>${esc(id)}</td><td>${m.netPnl}</td><td>${m.fees}</td><td>${m.orders}</td><td>${m.fills}</td><td>${m.maxDrawdown}</td></tr>`)
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Backtest</title></head><body>
<h1>Backtest ${esc(result.inputs.config)}</h1>
<table><tr><th>strategy</th><th>net PnL</th><th>fees</th><th>orders</th><th>fills</th><th>max drawdown</th></tr>
${rows}
</table></body></html>
`;
}
