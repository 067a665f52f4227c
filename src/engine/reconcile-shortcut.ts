/**
 * When a reconciliation pass may skip its reads (docs/architecture.md §4): only with the venue's
 * account change mark (`ExchangeGateway.changes`, offered by the backtest's in-process venue).
 *
 * A pass is a function of the venue's deals, orders and conditional records, of the store's
 * orders, children and fills, of the reconciler's missing-leg looks and of time. A skip is taken
 * only when the last complete pass P ran on the same venue state (same mark at its start), the
 * store's write counters still stand where they stood after P's conditional diff, and P settled
 * everything: no order or flex close of unknown outcome, no leg awaiting its second "missing"
 * look, and P's diff found nothing but children of ended parents to cancel. A full pass then
 * writes only its two checkpoints:
 * - scan: every deal that existed when P started was applied by P or an earlier scan (the venue
 *   shares the engine's clock, so a deal's time is at most P's anchor), so every deal of this
 *   window is known and the fills kernel emits nothing;
 * - conditional diff: the same listing against children that P's own events left as they were
 *   (a cancelled child is no longer live), so the same groups give the same (empty) answers; a
 *   pass that activated legs (it took OCOs from the listing) or saw a triggered leg is not
 *   reused, since the next diff would differ or report again;
 * - resolver: nothing unknown, pending or in flight to look at.
 */
import type { Store } from '../store/index.js';
import type { ConditionalEvent } from './kernels/conditional.js';

type ShortcutStore = Pick<Store, 'orders' | 'children' | 'fills' | 'flex'>;

/** What a pass leaves for the next one to compare. */
interface QuietPass {
  mark: number;
  versions: string;
}

export class PassShortcut {
  private last: QuietPass | undefined;
  /** The mark at the start of the last pass whose history scan was applied. */
  private scanned: number | undefined;

  constructor(
    private readonly store: ShortcutStore,
    private readonly changes: (() => number) | undefined,
  ) {}

  /** The store's write counters of everything a pass reads and writes. */
  private versions(): string {
    const { orders, children, fills } = this.store;
    return `${orders.version}/${children.version}/${fills.version}`;
  }

  /**
   * The mark at a pass's start (undefined without the capability), and whether the pass may be
   * skipped. Either way the previous record is dropped: a pass that fails leaves none.
   */
  begin(): { mark: number | undefined; skip: boolean } {
    const mark = this.changes?.();
    const last = this.last;
    this.last = undefined;
    if (mark === undefined || last === undefined || last.mark !== mark || last.versions !== this.versions()) return { mark, skip: false };
    const skip = this.store.flex.intents(['PENDING', 'UNKNOWN']).length === 0;
    if (skip) this.last = last;
    return { mark, skip };
  }

  /**
   * Right after a full pass's conditional diff: whether the store as it now stands is one the
   * next pass can skip over (see the header), kept until the pass ends.
   */
  settled(mark: number | undefined, events: readonly ConditionalEvent[], awaitingLooks: number): QuietPass | undefined {
    if (mark === undefined || awaitingLooks > 0 || events.some((e) => e.type !== 'child_cancelled')) return undefined;
    if (this.store.orders.listByState(['UNKNOWN', 'PENDING_CANCEL', 'PENDING']).length > 0) return undefined;
    return { mark, versions: this.versions() };
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
