/**
 * The orders that are not final (every state but FILLED, CANCELLED, REJECTED) and the orders
 * whose reported fill exceeds the deals applied (the `provisional` flag), kept in memory as the
 * connection sees them. Strategy ticks, the risk gate and the equity job read these sets many
 * times per minute; the SQL queries behind them were the largest part of the orders repository's
 * cost in a backtest (docs/backtesting.md § Speed).
 *
 * Exact because the repository is the only writer of the orders table (the daemon's instance
 * lock) and hands every written row to `track`, inside a transaction or not:
 * - loaded lazily from SQL, so a fresh handle starts from what is on disk;
 * - `dropAll` is called when a transaction fails (the store's `tx`): what it wrote is rolled
 *   back, so the sets are read again from SQL at the next look instead of being undone by hand.
 * Records are frozen: every reader gets the same value.
 */
import type { OrderState } from '../core/orders.js';
import type { OrderRecord } from '../model/journal.js';

/** The final states: an order in one of them never leaves it (src/engine/order-state.ts). */
const FINAL: ReadonlySet<OrderState> = new Set<OrderState>(['FILLED', 'CANCELLED', 'REJECTED']);

/** Whether every state of `states` is one this index holds (none is final). */
export function allLive(states: readonly OrderState[]): boolean {
  return states.every((s) => !FINAL.has(s));
}

/** Oldest first, as `ORDER BY created_ms, client_order_id` (ids are ASCII: code-unit order is SQLite's BINARY order). */
export function byAge(a: OrderRecord, b: OrderRecord): number {
  if (a.createdMs !== b.createdMs) return a.createdMs - b.createdMs;
  return a.clientOrderId < b.clientOrderId ? -1 : a.clientOrderId > b.clientOrderId ? 1 : 0;
}

interface Sets {
  live: Map<string, OrderRecord>;
  provisional: Map<string, OrderRecord>;
  /** The live orders that have a venue order id, by it (`order_id` is UNIQUE in the table). */
  byOrderId: Map<number, OrderRecord>;
  /**
   * The orders that turned final through a write since the sets were loaded, as written, the
   * newest `ENDED_MAX`: the order's final event is read right after its move commits
   * (daemon/order-events.ts), and a record kept from inside that transaction could not go to the
   * record cache. Dropped with the sets when a transaction fails.
   */
  ended: Map<string, OrderRecord>;
}

/** Final records kept after their last move (enough for the finals of one batch of fills or replies). */
export const ENDED_MAX = 512;

/** Drops the record an order had before a write from the venue id index. */
function unindex(byOrderId: Map<number, OrderRecord>, was: OrderRecord | undefined): void {
  if (was === undefined || was.orderId === null) return;
  if (byOrderId.get(was.orderId) === was) byOrderId.delete(was.orderId);
}

export class LiveOrders {
  private sets: Sets | undefined;

  /**
   * `load` reads both sets from SQL (on the same connection as the writes). `keep` false: a
   * handle that is not the writer (a read-only view beside a running daemon) reads them anew each time.
   */
  constructor(
    private readonly load: () => { live: OrderRecord[]; provisional: OrderRecord[] },
    private readonly keep = true,
  ) {}

  private loaded(): Sets {
    if (this.sets !== undefined) return this.sets;
    const { live, provisional } = this.load();
    const sets = {
      live: new Map(live.map((o) => [o.clientOrderId, o])),
      provisional: new Map(provisional.map((o) => [o.clientOrderId, o])),
      byOrderId: new Map(live.flatMap((o): [number, OrderRecord][] => (o.orderId === null ? [] : [[o.orderId, o]]))),
      ended: new Map<string, OrderRecord>(),
    };
    if (this.keep) this.sets = sets;
    return sets;
  }

  /** A row as just written (`provisional`: its flag). Nothing to do while the sets are not loaded: the load will read it. */
  track(record: OrderRecord, provisional: boolean): void {
    if (this.sets === undefined) return;
    const id = record.clientOrderId;
    unindex(this.sets.byOrderId, this.sets.live.get(id));
    if (FINAL.has(record.state)) {
      this.sets.live.delete(id);
      this.end(this.sets.ended, record);
    } else {
      this.sets.live.set(id, record);
      if (record.orderId !== null) this.sets.byOrderId.set(record.orderId, record);
    }
    if (provisional) this.sets.provisional.set(id, record);
    else this.sets.provisional.delete(id);
  }

  private end(ended: Map<string, OrderRecord>, record: OrderRecord): void {
    ended.delete(record.clientOrderId);
    ended.set(record.clientOrderId, record);
    if (ended.size > ENDED_MAX) ended.delete(ended.keys().next().value as string);
  }

  /** A final order's record as last written through this index, only when kept (no query). */
  peekEnded(clientOrderId: string): OrderRecord | undefined {
    return this.sets?.ended.get(clientOrderId);
  }

  /** A write may have been rolled back: read both sets again at the next look. */
  dropAll(): void {
    this.sets = undefined;
  }

  /** The record of a non-final order and its provisional flag, only when the sets are loaded (no query). */
  peek(clientOrderId: string): { record: OrderRecord; provisional: boolean } | undefined {
    const record = this.sets?.live.get(clientOrderId);
    if (record === undefined || this.sets === undefined) return undefined;
    return { record, provisional: this.sets.provisional.has(clientOrderId) };
  }

  /** The record of a non-final order, or undefined (final or unknown). */
  get(clientOrderId: string): OrderRecord | undefined {
    return this.loaded().live.get(clientOrderId);
  }

  /** The record of the non-final order with venue id `orderId`, only when the sets are loaded (no query); else undefined. */
  peekByOrderId(orderId: number): OrderRecord | undefined {
    return this.sets?.byOrderId.get(orderId);
  }

  /** Non-final orders in `states` (none final), optionally of one strategy, oldest first. */
  list(states: readonly OrderState[], strategyId?: string): OrderRecord[] {
    const wanted = new Set(states);
    const out: OrderRecord[] = [];
    for (const o of this.loaded().live.values()) {
      if (wanted.has(o.state) && (strategyId === undefined || o.strategyId === strategyId)) out.push(o);
    }
    return out.sort(byAge);
  }

  /** Orders flagged provisional, oldest first. */
  provisional(): OrderRecord[] {
    return [...this.loaded().provisional.values()].sort(byAge);
  }
}
