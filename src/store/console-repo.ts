/**
 * What the operator console reads and writes beyond the trading tables (migration 5): the equity
 * time series, the control actions with who and when, the strategies an operator paused, and the
 * newest fills and alerts across every strategy.
 */
import { toRecord as toFillRecord, type FillRow } from './fills-repo.js';
import type { Database } from 'better-sqlite3';
import { dec, toWire, type Decimal } from '../core/decimal.js';
import type { AlertRecord } from './types.js';
import type { FillRecord } from '../model/fills.js';

/** Equity checks kept: about 7 days at the default 15 s equity schedule. */
export const EQUITY_HISTORY_MAX_ROWS = 40_000;
/** Control actions kept (an operator's audit trail; far more than a human issues). */
export const CONTROL_ACTIONS_MAX_ROWS = 10_000;

export interface EquityPoint {
  atMs: number;
  equity: Decimal;
  peak: Decimal;
}

export interface ControlActionRecord {
  id: number;
  atMs: number;
  action: string;
  /** Strategy id, or null for bot-wide actions. */
  target: string | null;
  /** `cli`, `dashboard` or `token`: which credential was used. */
  who: string;
  /** Remote address of the request. */
  remote: string | null;
  /** `ok`, `refused` or `failed`. */
  result: string;
  detail: string | null;
}

export interface PausedRecord {
  strategyId: string;
  atMs: number;
  who: string;
}


export class ConsoleRepository {
  private equityWrites = 0;

  /** `ordersWritten`: writes the orders rows still pending, before a query that reads the table. */
  constructor(
    private readonly db: Database,
    private readonly ordersWritten: () => void = () => undefined,
  ) {}

  /** Appends one equity check; every 100 writes the oldest rows beyond the bound are dropped. */
  recordEquity(p: EquityPoint): void {
    this.db.prepare('INSERT INTO equity_history (at_ms, equity, peak) VALUES (?, ?, ?)').run(p.atMs, toWire(p.equity), toWire(p.peak));
    if (++this.equityWrites % 100 === 1) {
      this.db.prepare('DELETE FROM equity_history WHERE id <= (SELECT MAX(id) FROM equity_history) - ?').run(EQUITY_HISTORY_MAX_ROWS);
    }
  }

  /** Equity checks since `sinceMs`, oldest first. */
  equitySince(sinceMs: number): EquityPoint[] {
    const rows = this.db.prepare('SELECT at_ms, equity, peak FROM equity_history WHERE at_ms >= ? ORDER BY id').all(sinceMs) as {
      at_ms: number;
      equity: string;
      peak: string;
    }[];
    return rows.map((r) => ({ atMs: r.at_ms, equity: dec(r.equity), peak: dec(r.peak) }));
  }

  recordAction(a: Omit<ControlActionRecord, 'id'>): number {
    const id = Number(
      this.db
        .prepare('INSERT INTO control_actions (at_ms, action, target, who, remote, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(a.atMs, a.action, a.target, a.who, a.remote, a.result, a.detail).lastInsertRowid,
    );
    this.db.prepare('DELETE FROM control_actions WHERE id <= ? - ?').run(id, CONTROL_ACTIONS_MAX_ROWS);
    return id;
  }

  /** The newest control actions, newest first. */
  recentActions(limit: number): ControlActionRecord[] {
    const rows = this.db.prepare('SELECT * FROM control_actions ORDER BY id DESC LIMIT ?').all(limit) as {
      id: number;
      at_ms: number;
      action: string;
      target: string | null;
      who: string;
      remote: string | null;
      result: string;
      detail: string | null;
    }[];
    return rows.map((r) => ({ id: r.id, atMs: r.at_ms, action: r.action, target: r.target, who: r.who, remote: r.remote, result: r.result, detail: r.detail }));
  }

  setPaused(strategyId: string, atMs: number, who: string): void {
    this.db
      .prepare('INSERT INTO paused_strategies (strategy_id, at_ms, who) VALUES (?, ?, ?) ON CONFLICT (strategy_id) DO UPDATE SET at_ms = excluded.at_ms, who = excluded.who')
      .run(strategyId, atMs, who);
  }

  clearPaused(strategyId: string): void {
    this.db.prepare('DELETE FROM paused_strategies WHERE strategy_id = ?').run(strategyId);
  }

  paused(): PausedRecord[] {
    const rows = this.db.prepare('SELECT * FROM paused_strategies ORDER BY strategy_id').all() as { strategy_id: string; at_ms: number; who: string }[];
    return rows.map((r) => ({ strategyId: r.strategy_id, atMs: r.at_ms, who: r.who }));
  }

  /** The newest fills of every strategy (and external ones), newest first. */
  recentFills(limit: number): FillRecord[] {
    return (this.db.prepare('SELECT * FROM fills ORDER BY time_ms DESC, deal_id DESC LIMIT ?').all(limit) as FillRow[]).map(toFillRecord);
  }

  /** The newest alerts, newest first. */
  recentAlerts(limit: number): AlertRecord[] {
    const rows = this.db.prepare('SELECT * FROM alerts ORDER BY id DESC LIMIT ?').all(limit) as { id: number; at_ms: number; kind: string; subject: string; detail: string }[];
    return rows.map((r) => ({ id: r.id, atMs: r.at_ms, kind: r.kind, subject: r.subject, detail: r.detail }));
  }

  /**
   * A cheap fingerprint of what the dashboard shows from the store (orders, fills, alerts,
   * actions): it changes whenever one of them does, so the console pushes only on a change.
   */
  fingerprint(): string {
    this.ordersWritten();
    const r = this.db
      .prepare(
        `SELECT (SELECT COALESCE(MAX(updated_ms), 0) || ':' || COUNT(*) FROM orders) AS o,
                (SELECT COUNT(*) FROM fills) AS f,
                (SELECT COALESCE(MAX(id), 0) FROM alerts) AS a,
                (SELECT COALESCE(MAX(id), 0) FROM control_actions) AS c,
                (SELECT COALESCE(MAX(id), 0) FROM children) || ':' || (SELECT COALESCE(MAX(updated_ms), 0) FROM children) AS ch`,
      )
      .get() as Record<string, string | number>;
    return `${r['o']}|${r['f']}|${r['a']}|${r['c']}|${r['ch']}`;
  }
}
