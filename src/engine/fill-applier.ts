/**
 * Applies venue deals to the store: runs the pure fills kernel against what the store knows and
 * writes its events in ONE transaction (optionally with extra writes, e.g. the scan checkpoint),
 * then tells fill listeners about the newly recorded fills of our orders.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { Fill, FillRecord } from '../model/fills.js';
import type { Logger } from '../observability/logger.js';
import type { OrderState } from '../core/orders.js';
import type { Store } from '../store/index.js';
import { applyDeals, type FillEvent } from './kernels/fills.js';
import { batchInput } from './fill-input.js';
import type { OrderJournal } from './order-journal.js';

/** A fill of one of our orders (or protective legs), after it was committed. */
export interface FillNotice {
  strategyId: string;
  fill: FillRecord;
}
export type FillListener = (notice: FillNotice) => void;

/** What one application changed. */
export interface ApplySummary {
  /** Deals seen (after de-duplication inside the batch). */
  deals: number;
  /** Fills newly stored. */
  newFills: number;
  /** New fills that belong to no order of ours. */
  external: number;
  overfills: string[];
  stateChanges: number;
}

export class FillApplier {
  private readonly listeners = new Set<FillListener>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Order state moves (and ids learned) go through the journal. */
    private readonly journal: OrderJournal,
  ) {}

  onFill(listener: FillListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Applies `deals` (duplicates and already-stored deals are ignored). `alsoInTx` runs inside the
   * same transaction (the reconciler moves its checkpoint there).
   */
  apply(deals: readonly Fill[], alsoInTx?: () => void): ApplySummary {
    return this.applyBatches([deals], alsoInTx);
  }

  /**
   * Applies batches in order (oldest deals first across batches, so a leg's fill always meets
   * its parent's), all in ONE transaction with `alsoInTx`. Batches are pulled one at a time: a
   * lazy iterable keeps only one batch in memory. Listeners hear about new fills after commit.
   */
  applyBatches(batches: Iterable<readonly Fill[]>, alsoInTx?: () => void): ApplySummary {
    const now = this.clock.now();
    const notices: FillNotice[] = [];
    const summary: ApplySummary = { deals: 0, newFills: 0, external: 0, overfills: [], stateChanges: 0 };
    this.store.tx(() => {
      for (const deals of batches) {
        const batch = batchInput(this.store, deals);
        // Only the deals not stored yet: the kernel would skip the others.
        const events = batch === undefined ? [] : applyDeals(batch.input, batch.fresh);
        for (const e of events) this.write(e, now, summary, notices);
        summary.deals += deals.length < 2 ? deals.length : new Set(deals.map((d) => d.dealId)).size;
      }
      alsoInTx?.();
    });
    for (const n of notices) {
      for (const l of this.listeners) {
        try {
          l(n);
        } catch (err) {
          this.logger.error({ err, dealId: n.fill.dealId }, 'fill listener threw');
        }
      }
    }
    return summary;
  }

  /** Records an order's filled amount, moving it to `to` when that is a move; whether it moved. */
  private filledBase(clientOrderId: string, filledBase: Decimal, to: OrderState | null): boolean {
    const o = this.store.orders.get(clientOrderId);
    if (o === undefined) return false;
    if (to === null || to === o.state) {
      this.journal.note(clientOrderId, { filledBase });
      return false;
    }
    return this.journal.move(clientOrderId, to, 'fills', { filledBase }) !== o.state;
  }

  private write(e: FillEvent, now: number, summary: ApplySummary, notices: FillNotice[]): void {
    const { store } = this;
    switch (e.type) {
      case 'fill':
        return this.recordFill(e.fill, summary, notices);
      case 'order_id_learned': {
        this.journal.note(e.clientOrderId, { orderId: e.orderId });
        const o = store.orders.get(e.clientOrderId);
        if (o !== undefined) store.fills.attribute(e.orderId, o.strategyId, o.clientOrderId);
        return;
      }
      case 'order_filled_base':
        if (this.filledBase(e.clientOrderId, e.filledBase, e.to)) summary.stateChanges++;
        return;
      case 'overfill':
        summary.overfills.push(e.clientOrderId);
        store.alerts.add('overfill', e.clientOrderId, `filled ${e.filledBase.toFixed()} > amount ${e.amount.toFixed()}`, now);
        this.logger.error({ clientOrderId: e.clientOrderId, filled: e.filledBase.toFixed(), amount: e.amount.toFixed() }, 'ALERT: order overfilled');
        return;
      case 'leg_filled':
        return this.legFilled(e.childId, e.parentClientOrderId, e.orderId, now);
      case 'leg_fill_unattributed':
        store.alerts.add('leg_fill_unattributed', `deal ${e.dealId}`, `a protective leg of one of ${e.parents.join(', ')}`, now);
        this.logger.error({ dealId: e.dealId, parents: e.parents }, 'ALERT: a protective leg fill could belong to several positions; held unattributed');
        return;
      case 'order_id_conflict':
        store.alerts.add('order_id_conflict', e.clientOrderId, `deal ${e.dealId}: orderId ${e.seen}, known ${e.known}`, now);
        this.logger.error({ ...e }, 'ALERT: fill carries our clientOrderId with another orderId');
        return;
    }
  }

  private recordFill(fill: FillRecord, summary: ApplySummary, notices: FillNotice[]): void {
    if (!this.store.fills.insert(fill)) return;
    summary.newFills++;
    if (fill.strategyId === null) summary.external++;
    else notices.push({ strategyId: fill.strategyId, fill });
  }

  /** One protective leg executed: it is filled, and its siblings still standing are cancelled. */
  private legFilled(childId: number, parentClientOrderId: string, orderId: number, now: number): void {
    const { children } = this.store;
    children.update(childId, { state: 'filled', orderId }, now);
    for (const c of children.byParent(parentClientOrderId)) {
      const standing = c.state === 'armed' || c.state === 'active' || c.state === 'missing';
      if (c.id !== childId && standing) children.update(c.id, { state: 'cancelled' }, now);
    }
  }
}
