/** The balance audit's baseline (one row per asset, plus its time in `meta`) and its results, bounded. */
import type { Database } from 'better-sqlite3';
import { dec, toWire, type Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';
import type { AuditBaselineRow, BalanceAuditRecord } from './types.js';
import type { FillRecord } from '../model/fills.js';
import type { OrderKind } from '../model/journal.js';

interface OwnFillDbRow {
  market: string;
  side: Side;
  amount: string;
  quote: string;
  fee: string;
  fee_asset: string;
  kind: OrderKind;
  position_side: string | null;
}

/** One of our fills with its order's kind and position side, as the balance audit's books need it. */
export interface OwnFillRow {
  market: string;
  side: Side;
  amount: Decimal;
  quote: Decimal;
  fee: Decimal;
  feeAsset: string;
  kind: OrderKind;
  /** `BOTH` when the order named none. */
  positionSide: string;
}

const BASELINE_MS = 'audit.baselineMs';
/** Keeps the id sums of a fingerprint exact in a JS number up to millions of fills (beyond, a mismatch only costs a full recount). */
const PRIME = 1_000_000_007;

/** See `AuditRepository.fillsFingerprint`. */
export interface FillsFingerprint {
  n: number;
  maxId: number | null;
  ids: number;
  owned: number;
}
/** Results kept: a month of hourly audits, plus the restarts'. */
const KEEP = 1_000;

interface AuditRow {
  id: number;
  at_ms: number;
  outcome: string;
  from_ms: number | null;
  detail_json: string;
}

const toRecord = (r: AuditRow): BalanceAuditRecord => ({
  id: r.id,
  atMs: r.at_ms,
  outcome: r.outcome,
  fromMs: r.from_ms,
  detail: JSON.parse(r.detail_json) as unknown,
});
const decOrNull = (v: string | null): Decimal | null => (v === null ? null : dec(v));

export class AuditRepository {
  /** `ordersWritten`: writes the orders rows still pending, before a query that reads the table. */
  constructor(
    private readonly db: Database,
    private readonly ordersWritten: () => void = () => undefined,
  ) {}

  /** The baseline's time (the last audit that judged), or null before the first. */
  baselineMs(): number | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(BASELINE_MS) as { value: string } | undefined;
    return row === undefined ? null : Number.parseInt(row.value, 10);
  }

  baseline(): AuditBaselineRow[] {
    type Row = { asset: string; balance: string | null; books: string | null; at_ms: number | null };
    const rows = this.db.prepare('SELECT * FROM audit_baseline ORDER BY asset').all() as Row[];
    return rows.map((r) => ({ asset: r.asset, balance: decOrNull(r.balance), books: decOrNull(r.books), atMs: r.at_ms }));
  }

  /** Replaces the whole baseline (call inside `store.tx`, with the result it belongs to). */
  setBaseline(atMs: number, rows: readonly AuditBaselineRow[]): void {
    this.db.prepare('DELETE FROM audit_baseline').run();
    const insert = this.db.prepare('INSERT INTO audit_baseline (asset, balance, books, at_ms) VALUES (?, ?, ?, ?)');
    for (const r of rows) insert.run(r.asset, r.balance === null ? null : toWire(r.balance), r.books === null ? null : toWire(r.books), r.atMs);
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(BASELINE_MS, String(atMs));
  }

  record(atMs: number, outcome: string, fromMs: number | null, detail: unknown): void {
    const insert = this.db.prepare('INSERT INTO balance_audits (at_ms, outcome, from_ms, detail_json) VALUES (?, ?, ?, ?)');
    insert.run(atMs, outcome, fromMs, JSON.stringify(detail));
    this.db.prepare('DELETE FROM balance_audits WHERE id <= (SELECT MAX(id) FROM balance_audits) - ?').run(KEEP);
  }

  /**
   * What the fills with a deal id above `afterId` add up to, cheaply: how many, the highest id,
   * and sums of the ids (all, and of those with an owner) modulo a prime, so a late fill below
   * the highest id or a fill attributed after the fact changes it.
   */
  fillsFingerprint(afterId = -1): FillsFingerprint {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n, MAX(deal_id) AS maxId, COALESCE(SUM(deal_id % ${PRIME}), 0) AS ids,
                COALESCE(SUM(CASE WHEN owner_client_order_id IS NULL THEN 0 ELSE deal_id % ${PRIME} END), 0) AS owned
           FROM fills WHERE deal_id > ?`,
      )
      .get(afterId) as FillsFingerprint;
    return row;
  }

  /** Every fill of an order the bot placed with a deal id above `afterId`, with the order's kind. */
  ownFills(afterId = -1): OwnFillRow[] {
    this.ordersWritten();
    const rows = this.db
      .prepare(
        `SELECT f.market, f.side, f.amount, f.quote, f.fee, f.fee_asset, o.kind, o.position_side
           FROM fills f JOIN orders o ON o.client_order_id = f.owner_client_order_id WHERE f.deal_id > ?`,
      )
      .all(afterId) as OwnFillDbRow[];
    return rows.map((r) => ({
      market: r.market,
      side: r.side,
      amount: dec(r.amount),
      quote: dec(r.quote),
      fee: dec(r.fee),
      feeAsset: r.fee_asset,
      kind: r.kind,
      positionSide: r.position_side ?? 'BOTH',
    }));
  }

  /**
   * Every fill (ours or not) in `markets`, with our order's position side where the order is ours
   * (`BOTH` otherwise): the account's collateral positions as the venue holds margin for them.
   */
  fillsOnMarkets(markets: readonly string[], afterId = -1): Pick<OwnFillRow, 'market' | 'side' | 'amount' | 'positionSide'>[] {
    if (markets.length === 0) return [];
    this.ordersWritten();
    const rows = this.db
      .prepare(
        `SELECT f.market, f.side, f.amount, o.position_side FROM fills f LEFT JOIN orders o ON o.client_order_id = f.owner_client_order_id
          WHERE f.deal_id > ? AND f.market IN (${markets.map(() => '?').join(',')})`,
      )
      .all(afterId, ...markets) as { market: string; side: Side; amount: string; position_side: string | null }[];
    return rows.map((r) => ({ market: r.market, side: r.side, amount: dec(r.amount), positionSide: r.position_side ?? 'BOTH' }));
  }

  /** Markets of our collateral orders. */
  collateralMarkets(): string[] {
    this.ordersWritten();
    const rows = this.db.prepare(`SELECT DISTINCT market FROM orders WHERE kind = 'collateral' ORDER BY market`).all() as { market: string }[];
    return rows.map((r) => r.market);
  }

  /** Fills of orders the bot did not place, by deal time in (fromMs, toMs], oldest first, at most `limit`. */
  externalFills(fromMs: number, toMs: number, limit = 20): Pick<FillRecord, 'dealId' | 'market' | 'side' | 'amount' | 'price' | 'timeMs'>[] {
    const rows = this.db
      .prepare('SELECT deal_id, market, side, amount, price, time_ms FROM fills WHERE owner_client_order_id IS NULL AND time_ms > ? AND time_ms <= ? ORDER BY time_ms LIMIT ?')
      .all(fromMs, toMs, limit) as { deal_id: number; market: string; side: Side; amount: string; price: string; time_ms: number }[];
    return rows.map((r) => ({ dealId: r.deal_id, market: r.market, side: r.side, amount: dec(r.amount), price: dec(r.price), timeMs: r.time_ms }));
  }

  latest(): BalanceAuditRecord | undefined {
    const row = this.db.prepare('SELECT * FROM balance_audits ORDER BY id DESC LIMIT 1').get() as AuditRow | undefined;
    return row === undefined ? undefined : toRecord(row);
  }

  /** The last `limit` results, newest first. */
  recent(limit: number): BalanceAuditRecord[] {
    return (this.db.prepare('SELECT * FROM balance_audits ORDER BY id DESC LIMIT ?').all(limit) as AuditRow[]).map(toRecord);
  }
}
