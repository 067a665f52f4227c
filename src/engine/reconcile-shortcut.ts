/**
 * When a reconciliation pass may skip its reads (docs/architecture.md §4): only with the venue's
 * account change mark (`ExchangeGateway.changes`, offered by the backtest's in-process venue),
 * which moves on every deal and every change of the conditional listing.
 *
 * A pass is a function of the venue's deals and conditional listing, of the store's stored deals,
 * unsettled orders and live children (with their parents), of the reconciler's missing-leg looks
 * and of time. A skip is taken only when the last complete pass P ran on the same venue state
 * (same mark at its start), the live children with their parents are what P's conditional diff
 * left, and everything is settled: no order UNKNOWN, PENDING_CANCEL or PENDING, no flex close of
 * unknown outcome, no leg awaiting its second "missing" look, P's diff found nothing but
 * children of ended parents to cancel and P's resolver nothing to settle. A full pass would then
 * write only its two checkpoints:
 * - scan: every deal that existed when P started was applied by P or an earlier scan (the venue
 *   shares the engine's clock, so a deal's time is at most P's anchor), so every deal of this
 *   window is stored and the fills kernel emits nothing (it looks only at deals not stored);
 * - conditional diff: the same listing against the same children views gives the same answer,
 *   and P's was empty once its cancelled children had left the live set; a pass that activated
 *   legs (it took OCOs from the listing) or saw a triggered leg is not reused, since the next
 *   diff would differ or report again;
 * - resolver: nothing unknown, pending or in flight to look at.
 * Orders placed or cancelled in between without a deal change neither the listing nor the views.
 */
import type { Store } from '../store/index.js';
import type { ConditionalEvent } from './kernels/conditional.js';
import { VersionedMemo } from './versioned-memo.js';

type ShortcutStore = Pick<Store, 'orders' | 'flex' | 'fills'>;

/** What a pass leaves for the next one to compare. */
interface QuietPass {
  mark: number;
  /** The live children with their parents, as text (the conditional diff's whole store input). */
  views: string;
}

export class PassShortcut {
  private last: QuietPass | undefined;
  /** The mark at the start of the last pass whose history scan was applied. */
  private scanned: number | undefined;
  /** Orders of unsettled outcome, counted again only after an order was written. */
  private readonly unsettled = new VersionedMemo<number>();

  constructor(
    private readonly store: ShortcutStore,
    private readonly changes: (() => number) | undefined,
    /** The conditional diff's store input as text (Reconciler: its child views). */
    private readonly views: () => string,
  ) {}

  /** Nothing for the resolver to look at. */
  private settledStore(): boolean {
    const { orders, flex, fills } = this.store;
    const version = fills.inTransaction ? null : String(orders.version);
    const open = this.unsettled.get(version, 'orders', () => orders.listByState(['UNKNOWN', 'PENDING_CANCEL', 'PENDING']).length);
    return open === 0 && flex.intents(['PENDING', 'UNKNOWN']).length === 0;
  }

  /**
   * The mark at a pass's start (undefined without the capability), and whether the pass may be
   * skipped. Either way the previous record is dropped unless the pass is skipped: a pass that
   * fails leaves none.
   */
  begin(): { mark: number | undefined; skip: boolean } {
    const mark = this.changes?.();
    const last = this.last;
    this.last = undefined;
    if (mark === undefined || last === undefined || last.mark !== mark) return { mark, skip: false };
    const skip = last.views === this.views() && this.settledStore();
    if (skip) this.last = last;
    return { mark, skip };
  }

  /**
   * Right after a full pass's conditional diff: what the next pass compares with, when this
   * pass's diff leaves nothing to report again (see the header); kept until the pass ends.
   */
  settled(mark: number | undefined, events: readonly ConditionalEvent[], awaitingLooks: number): QuietPass | undefined {
    if (mark === undefined || awaitingLooks > 0 || events.some((e) => e.type !== 'child_cancelled')) return undefined;
    return { mark, views: this.views() };
  }

  /** A pass that began at `mark` applied its history scan: every deal then existing is stored. */
  scanApplied(mark: number | undefined): void {
    if (mark !== undefined) this.scanned = mark;
  }

  /**
   * True when the venue made no deal since a pass applied its scan, so no deal is missing from
   * the store (the deals then existing were at most that pass's anchor); false when unknown.
   */
  noDealSinceScan(): boolean {
    return this.scanned !== undefined && this.changes?.() === this.scanned;
  }

  /** The pass completed: its record stands when its resolver found nothing to settle. */
  completed(record: QuietPass | undefined, resolvedCount: number): void {
    this.last = resolvedCount === 0 ? record : undefined;
  }
}
