/**
 * The reconciler's two checkpoints (docs/architecture.md §4): the history anchor
 * (`fills.scannedToMs`, where the next scan starts, less the overlap) and the completion time of
 * the last pass (`reconcile.completedMs`).
 *
 * A pass skipped over an unchanged venue and store (reconcile-shortcut.ts; only with the
 * in-process venue's change mark) would write both and nothing else, once per candle in a
 * backtest. Its values are held here instead and reach the store with the next write that does
 * not supersede them: `flush()` (the backtest's store batch calls it before each commit, so what
 * a commit makes durable is what the passes would have written), or before a reader of the
 * store's anchor is told a deal may be missing (`Reconciler.noDealSinceScan`). The next full pass
 * writes both itself. Every read through this class sees the held values, so the next pass reads
 * the same anchor as if they had been written; a store read after a flush, or by another process
 * after a commit, reads the same rows. Inside a transaction that may still roll back nothing is
 * held: the values are written at once, as before.
 *
 * With the change mark (in process only: the daemon never holds) a full pass holds its two
 * values the same way instead of writing them: the anchor after its scan's transaction committed,
 * the completion at its end. A run's batch commits once per simulated hour, and every pass of it
 * would otherwise rewrite both rows (the anchor in the scan's transaction, the completion in one
 * of its own), which only the last of them decided.
 */
import type { Store, StoreBatch } from '../store/index.js';

export const HISTORY_CHECKPOINT = 'fills.scannedToMs';
export const RECONCILED_AT = 'reconcile.completedMs';

type CheckpointStore = Pick<Store, 'checkpoints' | 'fills' | 'tx'>;

/** A checkpoint row as a skipped pass would have written it. */
interface Held {
  value: string;
  atMs: number;
}

export class ReconcileCheckpoints {
  /**
   * The history anchor as this class last wrote it (only the reconciler writes it), so a pass
   * does not read it back; unset until the first write outside a transaction (then the store's
   * is read). Even a stale value could only be older than the store's, which widens a scan and
   * loses nothing.
   */
  private committedAnchor: string | undefined;
  private heldAnchor: Held | undefined;
  private heldCompletion: Held | undefined;

  constructor(
    private readonly store: CheckpointStore,
    /** Full passes hold their values too (only where something flushes them: the backtest's batch). */
    private readonly holdFullPasses = false,
  ) {}

  /** Whether a value written now would be held rather than written. */
  private holds(): boolean {
    return this.holdFullPasses && !this.store.fills.inTransaction;
  }

  /** The history anchor a pass starts from: held, else last written, else the store's. */
  anchor(): string | undefined {
    return this.heldAnchor?.value ?? this.committedAnchor ?? this.store.checkpoints.get(HISTORY_CHECKPOINT)?.value;
  }

  /** Time of the last complete pass (ms), held or stored. */
  completedMs(): number | undefined {
    const value = this.heldCompletion?.value ?? this.store.checkpoints.get(RECONCILED_AT)?.value;
    return value === undefined ? undefined : Number.parseInt(value, 10);
  }

  /** Whether values are held that the store does not have yet. */
  get holding(): boolean {
    return this.heldAnchor !== undefined || this.heldCompletion !== undefined;
  }

  /** A full scan's transaction wrote the anchor (the caller's callback inside it). */
  writeAnchor(toMs: number, nowMs: number): void {
    this.store.checkpoints.set(HISTORY_CHECKPOINT, String(toMs), nowMs);
  }

  /**
   * What a scan's transaction writes besides its deals: the anchor, or nothing when full passes
   * hold it (`scanCommitted` then holds it).
   */
  inScan(toMs: number, now: () => number): (() => void) | undefined {
    return this.holds() ? undefined : () => this.writeAnchor(toMs, now());
  }

  /** A scan's transaction committed: its anchor was written in it (`inScan`), or is held now. */
  scanCommitted(toMs: number, nowMs: number): void {
    if (this.holds()) this.heldAnchor = { value: String(toMs), atMs: nowMs };
    else this.anchorCommitted(toMs);
  }

  /**
   * A full pass begins. Inside a transaction that may roll back, what is held is written first:
   * the pass's own writes there may vanish, and must not leave an older held value to follow.
   */
  fullPass(): void {
    if (this.store.fills.inTransaction) this.flush();
  }

  /** The scan's transaction committed: its anchor supersedes a held one. */
  anchorCommitted(toMs: number): void {
    this.heldAnchor = undefined;
    // Not remembered inside an outer transaction, which may yet roll back.
    this.committedAnchor = this.store.fills.inTransaction ? undefined : String(toMs);
  }

  /** A full pass completed at `finishedMs`: held when full passes hold theirs, else written at once (superseding a held completion). */
  complete(finishedMs: number): void {
    if (this.holds()) {
      this.heldCompletion = { value: String(finishedMs), atMs: finishedMs };
      return;
    }
    this.store.tx(() => this.store.checkpoints.set(RECONCILED_AT, String(finishedMs), finishedMs));
    this.heldCompletion = undefined;
  }

  /** A skipped pass: both checkpoints held (written at once inside a transaction that may roll back). */
  skipped(toMs: number, finishedMs: number): void {
    this.heldAnchor = { value: String(toMs), atMs: finishedMs };
    this.heldCompletion = { value: String(finishedMs), atMs: finishedMs };
    if (this.store.fills.inTransaction) this.flush();
  }

  /** Writes the held values, if any, in one transaction; then the store's rows are the passes' own. */
  flush(): void {
    const anchor = this.heldAnchor;
    const completion = this.heldCompletion;
    if (anchor === undefined && completion === undefined) return;
    const { store } = this;
    store.tx(() => {
      if (anchor !== undefined) store.checkpoints.set(HISTORY_CHECKPOINT, anchor.value, anchor.atMs);
      if (completion !== undefined) store.checkpoints.set(RECONCILED_AT, completion.value, completion.atMs);
    });
    this.heldAnchor = undefined;
    this.heldCompletion = undefined;
    if (anchor !== undefined) this.anchorCommitted(Number.parseInt(anchor.value, 10));
  }
}

/** `batch` whose commit first writes what `flush` holds (the backtest's store batch and its reconciler). */
export function flushingBatch(batch: StoreBatch, flush: () => void): StoreBatch {
  return {
    begin: () => batch.begin(),
    commit: () => {
      if (batch.open) flush();
      batch.commit();
    },
    get open() {
      return batch.open;
    },
  };
}
