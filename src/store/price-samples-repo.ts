/**
 * Prices the daemon saw in the futures listing (migration 6): at most one sample per market per
 * minute, kept `PRICE_RETENTION_MS` (30 days), exported as backtest CSV by `npm run prices`.
 */
import type { Database } from 'better-sqlite3';
import { dec, toWire, type Decimal } from '../core/decimal.js';

export const PRICE_RETENTION_MS = 30 * 24 * 3_600_000;

export interface PriceSample {
  market: string;
  timeMs: number;
  price: Decimal;
}

export class PriceSamplesRepository {
  constructor(private readonly db: Database) {}

  /** Records a sample; a second one of the same market and ms is ignored. */
  record(market: string, timeMs: number, price: Decimal): void {
    this.db.prepare('INSERT OR IGNORE INTO price_samples (market, time_ms, price) VALUES (?, ?, ?)').run(market, timeMs, toWire(price));
  }

  /** Deletes samples older than `beforeMs`; returns how many. */
  prune(beforeMs: number): number {
    return this.db.prepare('DELETE FROM price_samples WHERE time_ms < ?').run(beforeMs).changes;
  }

  /** Samples in [fromMs, toMs], by market then time. */
  *range(fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): Generator<PriceSample> {
    const rows = this.db
      .prepare('SELECT market, time_ms, price FROM price_samples WHERE time_ms >= ? AND time_ms <= ? ORDER BY market, time_ms')
      .iterate(fromMs, toMs) as IterableIterator<{ market: string; time_ms: number; price: string }>;
    for (const r of rows) yield { market: r.market, timeMs: r.time_ms, price: dec(r.price) };
  }
}
