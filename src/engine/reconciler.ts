/**
 * The reconciliation loop body (docs/architecture.md §4): conditional listing → executed-history
 * scan → diff of that listing against the legs still live → resolve unknown outcomes. The daemon runs `reconcileOnce()` at start-up before
 * any strategy tick (and refuses to trade if it throws), then on its schedule.
 *
 * The history checkpoint (the fixed anchor of the last complete scan, ms) moves only in the
 * transaction that applies the whole scan; the next scan re-reads `overlapMs` before it, so
 * late-arriving deals are caught and duplicates are dropped by deal id.
 */
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { ConditionalRecord } from '../model/conditional.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { ApplySummary, FillApplier, FillListener } from './fill-applier.js';
import { diffConditional, type ChildView, type ConditionalEvent } from './kernels/conditional.js';
import { HISTORY_CHECKPOINT, RECONCILED_AT, ReconcileCheckpoints } from './reconcile-checkpoints.js';
import { PassShortcut } from './reconcile-shortcut.js';
import { bufferPages, ScanBuffer } from './scan-buffer.js';
import { ReconcileViews } from './reconcile-views.js';
import type { ResolveOutcome, Resolver } from './resolver.js';

export { HISTORY_CHECKPOINT, RECONCILED_AT };
/**
 * Reply `Date` headers have whole seconds, so a measured skew within this is rounding and
 * latency, not a clock difference. Beyond it (local clock ahead) the history anchor moves back,
 * and the daemon warns either way. ms.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 2_000;

export interface ReconcilerOptions {
  /** Time re-scanned before the checkpoint, ms. Default 300 000. */
  overlapMs?: number;
  /** Deals applied per kernel batch (bounds memory on a long first scan). Default 5 000. */
  applyChunk?: number;
}

export interface ReconcileReport {
  startedMs: number;
  finishedMs: number;
  /** The scanned range: from (ms, inclusive; null = all served history) to the fixed anchor (ms). */
  scan: ApplySummary & { pages: number; duplicates: number; fromMs: number | null; toMs: number };
  conditional: ConditionalEvent[];
  resolved: ResolveOutcome[];
  /** Orders still UNKNOWN / PENDING_CANCEL after this pass. */
  unresolved: number;
}

export interface ReconcilerDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  /** Applies the scanned deals (the same applier the resolver uses). */
  fills: FillApplier;
  /** Settles unknown outcomes at the end of each pass. */
  resolver: Resolver;
  /**
   * The venue's account change mark; default the gateway's `changes` when it has one (in process
   * only). With it a pass over an unchanged venue and store reads and writes nothing: its
   * checkpoints are held until the store's next commit (reconcile-checkpoints.ts).
   */
  changes?: () => number;
}

/** Writes one conditional-diff event to the store (inside the caller's transaction). */
function recordConditionalEvent(store: Store, e: ConditionalEvent, now: number): void {
  if (e.type === 'leg_active') {
    store.children.update(e.childId, { state: 'active', orderId: e.orderId, ocoId: e.ocoId }, now);
    const c = store.children.byId(e.childId);
    if (c !== undefined) store.fills.attribute(e.orderId, c.strategyId, c.parentClientOrderId);
  } else if (e.type === 'child_cancelled') {
    store.children.update(e.childId, { state: 'cancelled' }, now);
  } else if (e.type === 'leg_missing') {
    store.children.update(e.childId, { state: 'missing' }, now);
    store.alerts.add('protective_leg_missing', e.parentClientOrderId, e.reason, now);
  }
  // leg_triggered is informational: the leg stays active until its fill arrives through the scan.
}

export class Reconciler {
  private readonly overlapMs: number;
  private readonly applyChunk: number;
  private running: Promise<ReconcileReport> | undefined;
  /** Child id → consecutive passes that found the leg neither listed nor filled. */
  private readonly missingLooks = new Map<number, number>();
  /** The inputs of the last conditional diff, when it found nothing (the diff is a pure function of them). */
  private quietDiff: { views: readonly ChildView[]; listing: readonly ConditionalRecord[] } | undefined;
  private readonly shortcut: PassShortcut;
  private readonly views: ReconcileViews;
  /** The history anchor and the completion time, held while passes are skipped. */
  private readonly checkpoints: ReconcileCheckpoints;

  constructor(
    private readonly deps: ReconcilerDeps,
    options: ReconcilerOptions = {},
  ) {
    this.overlapMs = options.overlapMs ?? 300_000;
    this.applyChunk = options.applyChunk ?? 5_000;
    const { gateway } = deps;
    const changes = deps.changes ?? (gateway.changes === undefined ? undefined : () => gateway.changes?.() ?? 0);
    // With the mark (in process) full passes hold their checkpoints as skipped ones do: the
    // backtest's batch flushes them before each commit (reconcile-checkpoints.ts).
    this.checkpoints = new ReconcileCheckpoints(deps.store, changes !== undefined);
    this.views = new ReconcileViews(deps.store);
    this.shortcut = new PassShortcut(deps.store, changes, () => this.views.read().key);
  }

  /** Called after each committed fill of our orders (the daemon forwards to strategies' onFill). */
  onFill(listener: FillListener): () => void {
    return this.deps.fills.onFill(listener);
  }

  /**
   * True when the venue's change mark shows no deal since the start of a pass whose scan was
   * applied: the store then lacks no deal (the equity check's question, answered without
   * reading history). False without the mark, or when anything changed: then ask the venue,
   * from the store's history checkpoint, which then holds what the skipped passes left.
   */
  noDealSinceScan(): boolean {
    const none = this.shortcut.noDealSinceScan();
    if (!none) this.checkpoints.flush();
    return none;
  }

  /**
   * Writes the checkpoints skipped passes hold (reconcile-checkpoints.ts): the store then has the
   * rows every pass would have written. The backtest's store batch calls it before each commit.
   */
  flushCheckpoints(): void {
    this.checkpoints.flush();
  }

  /** Time of the last complete pass (ms), if any. */
  lastReconciledMs(): number | undefined {
    return this.checkpoints.completedMs();
  }

  /** One full pass. Concurrent calls share the pass in progress. */
  reconcileOnce(): Promise<ReconcileReport> {
    if (this.running !== undefined) return this.running;
    // A skipped pass (most of a backtest's, one per candle) ends before anything awaits: its
    // report is handed out at once, without the async pass and its shared promise around it.
    let begun: { startedMs: number; mark: number | undefined };
    try {
      const startedMs = this.deps.clock.now();
      const { mark, skip } = this.shortcut.begin();
      if (skip) return Promise.resolve(this.checkpointsOnly(startedMs));
      begun = { startedMs, mark };
    } catch (err) {
      return Promise.reject(err as Error);
    }
    this.running = this.pass(begun.startedMs, begun.mark).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Executed-history scan only (also used by the benchmark). Pages are held until the whole scan
   * is read (scan-buffer.ts: in memory up to `applyChunk` deals, beyond that in the store's TEMP
   * stage), then applied oldest first in chunks of `applyChunk` deals, all in one transaction
   * with the checkpoint. A failed scan or apply changes nothing.
   */
  async scanOnce(): Promise<ReconcileReport['scan']> {
    const { store, clock, gateway } = this.deps;
    const { fromMs, toMs } = this.scanRange();
    const buffer = new ScanBuffer(store.scanStage, this.applyChunk);
    try {
      const staged = await bufferPages(gateway.fills(fromMs === undefined ? { toMs } : { fromMs, toMs }), buffer);
      // The time the scan's transaction starts at: a held anchor's, as a written one's.
      const atMs = clock.now();
      const s = this.deps.fills.applyBatches(buffer.batches(), this.checkpoints.inScan(toMs, () => clock.now()));
      this.checkpoints.scanCommitted(toMs, atMs);
      // Named fields, not spreads of two objects into one (V8's slow path, at every scan).
      const { deals, newFills, external, overfills, stateChanges } = s;
      return { deals, newFills, external, overfills, stateChanges, pages: staged.pages, duplicates: staged.duplicates, fromMs: fromMs ?? null, toMs };
    } finally {
      buffer.clear();
    }
  }

  /** A scan's range: `overlapMs` before the checkpoint (all history without one) to the anchor. */
  private scanRange(): { fromMs: number | undefined; toMs: number } {
    const { clock, gateway } = this.deps;
    const cp = this.checkpoints.anchor();
    // The anchor is never ahead of the venue's clock: with a local clock ahead by more than the
    // overlap, a deal stamped after the venue's "now" but before a local anchor would fall
    // between this scan and the next one's start. A clock behind only delays deals a scan.
    // `Date` headers have whole seconds, so a measured skew of up to about -1 s is only that
    // rounding plus latency: below the tolerance the local clock is the anchor.
    const now = clock.now();
    const skew = gateway.clockSkewMs() ?? 0;
    const toMs = skew < -CLOCK_SKEW_TOLERANCE_MS ? now + skew : now;
    const fromMs = cp === undefined ? undefined : Math.max(0, Number.parseInt(cp, 10) - this.overlapMs);
    return { fromMs, toMs };
  }

  /**
   * The live children with their parents, as the conditional diff sees them; kept while neither
   * the children nor their parents' strategies' orders were written (reconcile-views.ts).
   */
  private childViews(): ChildView[] {
    return this.views.read().views;
  }

  /**
   * The conditional listing of the markets our live protective legs are in, or null when there
   * are none. Read BEFORE the history scan: a leg that executes after this listing is still in
   * it, and one that executed before it has its deal in the scan that follows, so a leg that
   * executed can never look "missing" (a leg absent from the listing with no deal was cancelled
   * or lost). The scan settles executed legs before the listing is diffed.
   */
  private async listProtective(): Promise<ConditionalRecord[] | null> {
    const views = this.childViews();
    if (views.length === 0) return null;
    return this.deps.gateway.protectiveOrders([...new Set(views.map((v) => v.parent.market))].sort());
  }

  /**
   * A leg is declared missing only when two passes in a row found it neither listed nor filled:
   * the second look absorbs a venue that lists or reports an execution a moment late.
   */
  private confirmMissing(events: ConditionalEvent[]): ConditionalEvent[] {
    // The usual pass: nothing flagged now, and no look from an earlier pass to forget.
    if (events.length === 0 && this.missingLooks.size === 0) return events;
    const flagged = new Set<number>();
    const out = events.filter((e) => {
      if (e.type !== 'leg_missing') return true;
      flagged.add(e.childId);
      const looks = (this.missingLooks.get(e.childId) ?? 0) + 1;
      this.missingLooks.set(e.childId, looks);
      return looks >= 2;
    });
    for (const id of [...this.missingLooks.keys()]) if (!flagged.has(id)) this.missingLooks.delete(id);
    return out;
  }

  /**
   * The conditional diff; nothing, without diffing again, when the very views (kept while their
   * inputs are unwritten: reconcile-views.ts) meet the very records (the in-process venue's kept
   * listing hands out the same frozen ones) of a diff that found nothing.
   */
  private diff(views: readonly ChildView[], listing: readonly ConditionalRecord[]): ConditionalEvent[] {
    const quiet = this.quietDiff;
    if (quiet !== undefined && quiet.views === views && quiet.listing.length === listing.length && quiet.listing.every((r, i) => r === listing[i])) return [];
    const events = diffConditional(views, listing);
    this.quietDiff = events.length === 0 ? { views, listing } : undefined;
    return events;
  }

  /** Diffs a listing against the children still live after the scan, and records the events. */
  private applyListing(listing: readonly ConditionalRecord[]): ConditionalEvent[] {
    const events = this.confirmMissing(this.diff(this.childViews(), listing));
    const { store, clock, logger } = this.deps;
    const now = clock.now();
    // The usual diff finds nothing: then no transaction at all.
    if (events.length > 0) {
      store.tx(() => {
        for (const e of events) recordConditionalEvent(store, e, now);
      });
    }
    for (const e of events) {
      if (e.type === 'leg_missing') logger.error({ parent: e.parentClientOrderId, reason: e.reason }, 'ALERT: protective leg missing');
      if (e.type === 'leg_triggered') logger.info({ parent: e.parentClientOrderId, orderId: e.orderId }, 'stop leg triggered');
    }
    return events;
  }

  /** A full pass, begun at `startedMs` with the change mark `mark` (`reconcileOnce` asked the shortcut). */
  private async pass(startedMs: number, mark: number | undefined): Promise<ReconcileReport> {
    this.checkpoints.fullPass();
    const listing = await this.listProtective();
    const scan = await this.scanOnce();
    this.shortcut.scanApplied(mark);
    const conditional = listing === null ? [] : this.applyListing(listing);
    const settled = this.shortcut.settled(mark, conditional, this.missingLooks.size);
    const resolved = await this.deps.resolver.resolveAll();
    const unresolved = this.deps.store.orders.listByState(['UNKNOWN', 'PENDING_CANCEL']).length;
    const finishedMs = this.deps.clock.now();
    this.checkpoints.complete(finishedMs);
    this.shortcut.completed(settled, resolved.length);
    if (scan.newFills > 0 || unresolved > 0 || conditional.length > 0) {
      this.deps.logger.info({ newFills: scan.newFills, pages: scan.pages, external: scan.external, unresolved, conditional: conditional.length }, 'reconciled');
    }
    return { startedMs, finishedMs, scan, conditional, resolved, unresolved };
  }

  /**
   * A pass over a venue and a store that did not change since a pass that settled everything
   * (reconcile-shortcut.ts): what a full pass would write is the history checkpoint at this
   * pass's anchor and the completion time, and nothing else; both are held until the store's
   * next commit or reader (reconcile-checkpoints.ts).
   */
  private checkpointsOnly(startedMs: number): ReconcileReport {
    const { fromMs, toMs } = this.scanRange();
    const finishedMs = this.deps.clock.now();
    this.checkpoints.skipped(toMs, finishedMs);
    const scan = { deals: 0, newFills: 0, external: 0, overfills: [], stateChanges: 0, pages: 0, duplicates: 0, fromMs: fromMs ?? null, toMs };
    return { startedMs, finishedMs, scan, conditional: [], resolved: [], unresolved: 0 };
  }
}
