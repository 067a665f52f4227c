/**
 * The scheduled equity check (docs/equity.md): one equity reading (equity-reader.ts) fed to the
 * drawdown kill switch, then the status records of the reading: the account row `npm run status`,
 * the dashboard and the notifications read (status-records.ts), and a point of the dashboard's
 * equity curve.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { EquityReading } from './equity-reader.js';
import type { EquityWatch } from './equity-watch.js';
import { pricesToKeep, writeAccount } from './status-records.js';

export interface EquityCheckDeps {
  equityAsset: string;
  /** The configured markets (their prices are kept in the account row). */
  markets: readonly string[];
  store: Pick<Store, 'meta' | 'console' | 'tx'>;
  clock: Clock;
  logger: Logger;
  watch: Pick<EquityWatch, 'update'>;
  read: () => Promise<EquityReading>;
  /**
   * False: the status records are not written. Only a run whose store nobody else reads and which
   * is thrown away at its end (a backtest's) may say so: the records have no reader there. The
   * kill switch and its persisted peak are the same either way.
   */
  statusRecords: boolean;
}

export async function checkEquity(d: EquityCheckDeps): Promise<void> {
  const r = await d.read();
  if (!r.settled) d.logger.warn({ attempts: r.attempts }, 'journal kept moving during the balance read; equity may be off by an order in flight');
  const e = d.watch.update(r.equity);
  if (!d.statusRecords) return;
  const { store, equityAsset } = d;
  const valuedAssets = { ...r.balances, ...r.journal.held.byAsset, ...r.journal.flex };
  const kept = pricesToKeep(r.prices, d.markets, valuedAssets, equityAsset);
  const atMs = d.clock.now();
  const snapshot = { atMs, equityAsset, balances: r.balances, prices: kept, equityQuote: e.currentQuote, peakQuote: e.peakQuote };
  writeAccount(store.meta, { ...snapshot, breakdown: r.equity });
  // The dashboard's equity curve (bounded in the store).
  store.tx(() => store.console.recordEquity({ atMs, equity: e.currentQuote, peak: e.peakQuote }));
}
