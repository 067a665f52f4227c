/**
 * The daily summary's figures, read from the store for a 24 h window: fills in it, realised PnL
 * made in it (gross and net of the fees paid in the quote asset), open orders, the trading state
 * and the alerts raised in it. Realised PnL of the window is the FIFO total over the fills up to
 * its end minus the total over the fills before its start (src/engine/positions.ts), so a lot
 * opened before the window and closed in it counts in it, exactly.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import { derivePositions } from '../engine/positions.js';
import type { PositionFill } from '../model/fills.js';
import { readAccount } from '../engine/status-records.js';
import { utcDay, type DailySummaryEvent, type PnlLine, type SummaryEquity, type SummaryWindow } from '../notify/index.js';
import type { Store } from '../store/index.js';

const quoteOf = (market: string): string => market.split('_')[1] ?? market;

function realisedByQuote(fills: readonly PositionFill[]): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const p of derivePositions(fills)) out.set(quoteOf(p.market), (out.get(quoteOf(p.market)) ?? ZERO).plus(p.realisedPnl));
  return out;
}

function addTo(m: Map<string, Decimal>, k: string, v: Decimal): void {
  m.set(k, (m.get(k) ?? ZERO).plus(v));
}

/** PnL lines per quote asset and the fees paid in other assets, for the fills of the window. */
function pnlOf(all: readonly PositionFill[], w: SummaryWindow): { pnl: PnlLine[]; otherFees: DailySummaryEvent['otherFees'] } {
  const before = realisedByQuote(all.filter((f) => f.timeMs < w.fromMs));
  const upTo = realisedByQuote(all.filter((f) => f.timeMs < w.toMs));
  const quoteFees = new Map<string, Decimal>();
  const otherFees = new Map<string, Decimal>();
  for (const f of all) {
    if (f.timeMs < w.fromMs || f.timeMs >= w.toMs || f.fee.isZero()) continue;
    if (f.feeAsset === quoteOf(f.market)) addTo(quoteFees, f.feeAsset, f.fee);
    else addTo(otherFees, f.feeAsset === '' ? '(unnamed)' : f.feeAsset, f.fee);
  }
  const quotes = [...new Set([...upTo.keys(), ...quoteFees.keys()])].sort();
  const pnl = quotes
    .map((quote) => {
      const realised = (upTo.get(quote) ?? ZERO).minus(before.get(quote) ?? ZERO);
      const fees = quoteFees.get(quote) ?? ZERO;
      return { quote, realised, fees, realisedNetOfFees: realised.minus(fees) };
    })
    .filter((l) => !l.realised.isZero() || !l.fees.isZero());
  return { pnl, otherFees: [...otherFees.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([asset, amount]) => ({ asset, amount: new Decimal(amount) })) };
}

/** The last equity check (the daemon writes it at each check: src/engine/status-records.ts). */
function lastEquity(store: Store): SummaryEquity | null {
  const a = readAccount(store.meta);
  if (a === null) return null;
  const b = a.breakdown;
  const unvalued = b === null ? [] : Object.entries(b.unvalued).map(([asset, amount]) => ({ asset, amount }));
  return { asset: a.equityAsset, atMs: a.atMs, total: a.equityQuote, peak: a.peakQuote, parts: b?.parts ?? null, unvalued };
}

export function dailySummary(store: Store, tradingState: string, w: SummaryWindow): DailySummaryEvent {
  const fills = store.fills.all();
  const alerts = new Map<string, number>();
  for (const a of store.alerts.list()) if (a.atMs >= w.fromMs && a.atMs < w.toMs) alerts.set(a.kind, (alerts.get(a.kind) ?? 0) + 1);
  return {
    type: 'daily_summary',
    atMs: w.toMs,
    fromMs: w.fromMs,
    day: utcDay(w.toMs - 1),
    tradingState,
    fills: fills.filter((f) => f.timeMs >= w.fromMs && f.timeMs < w.toMs).length,
    openOrders: store.orders.listByState(['OPEN', 'PARTIALLY_FILLED']).length,
    ...pnlOf(fills, w),
    alerts: [...alerts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, count]) => ({ kind, count })),
    equity: lastEquity(store),
  };
}
