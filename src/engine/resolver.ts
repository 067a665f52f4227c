/**
 * Settles orders whose outcome is not known, from evidence only (docs/architecture.md §8.5,
 * docs/failure-modes.md #1, 3, 4). It never resends and never calls an ambiguous order REJECTED.
 *
 * Evidence, in order: executed history filtered by clientOrderId (fills prove existence, a
 * complete fill settles it), the conditional listing (a collateral parent resting under its OTO),
 * and a cancel by clientOrderId used as a probe (success: it existed and is now cancelled).
 * "Not found" is cancelled OR filled OR never placed: only after `graceMs` and `minLooks` looks
 * does it become CANCELLED (reason `lost` when nothing ever proved it existed). A lost order
 * still receives its fills: fills are matched by clientOrderId whatever the state.
 */
import type { Clock } from '../core/clock.js';
import { errorCode, InvalidOrderError } from '../core/errors.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { OrderState } from '../core/orders.js';
import type { Store } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import type { FillApplier } from './fill-applier.js';
import type { FlexCloser } from './flex-close.js';
import type { OrderJournal, OrderPatch } from './order-journal.js';
import { reportedPatch, stateOfVenueOrder } from './order-outcomes.js';

export interface ResolveOptions {
  /** Minimum time an order stays unresolved before a "not found" verdict, ms. Default 30 000. */
  graceMs: number;
  /** Minimum number of looks before a "not found" verdict. Default 3. */
  minLooks: number;
}

/** One resolver look at one order (or flex close). */
export interface ResolveOutcome {
  clientOrderId: string;
  /** The settled state, or `pending` when the evidence is not conclusive yet. */
  verdict: OrderState | 'pending' | 'DONE' | 'LOST';
  evidence: string;
}

export interface ResolverDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  /** Fills found while resolving are applied like the reconciler's (the same applier). */
  fills: FillApplier;
  /** Owns order state and knows which requests are in flight (their rows are not orphans). */
  journal: OrderJournal;
  /** Flex closes of unknown outcome are settled in the same pass. */
  flex: FlexCloser;
}

export class Resolver {
  private readonly opts: ResolveOptions;
  constructor(
    private readonly deps: ResolverDeps,
    opts: Partial<ResolveOptions> = {},
  ) {
    this.opts = { graceMs: opts.graceMs ?? 30_000, minLooks: opts.minLooks ?? 3 };
  }

  /** Settled by evidence: the resolution clock stops. */
  private move(cid: string, to: OrderState, reason: string, patch: OrderPatch = {}, venue: string | null = null): OrderState {
    return this.deps.journal.move(cid, to, reason, { ...patch, unknownSinceMs: null }, venue);
  }

  private bump(o: OrderRecord): void {
    this.deps.journal.note(o.clientOrderId, { resolveLooks: o.resolveLooks + 1, unknownSinceMs: o.unknownSinceMs ?? this.deps.clock.now() });
  }

  /**
   * Turns orphans of a previous process into UNKNOWN, then looks at every unresolved order, then
   * at every flex close of unknown outcome.
   */
  async resolveAll(): Promise<ResolveOutcome[]> {
    const { journal, store } = this.deps;
    // Journaled, maybe sent, reply never recorded (crash): ambiguous by definition.
    journal.orphansToUnknown();
    const out: ResolveOutcome[] = [];
    for (const o of store.orders.listByState(['UNKNOWN', 'PENDING_CANCEL'])) {
      if (!journal.isInFlight(o.clientOrderId)) out.push(await this.lookSafely(o));
    }
    out.push(...(await this.deps.flex.resolveUnknown()));
    return out;
  }

  private async lookSafely(o: OrderRecord): Promise<ResolveOutcome> {
    try {
      return await this.resolveOne(o);
    } catch (err) {
      this.deps.logger.warn({ clientOrderId: o.clientOrderId, code: errorCode(err) }, 'resolver look failed; will retry');
      this.bump(o);
      return { clientOrderId: o.clientOrderId, verdict: 'pending', evidence: `error ${errorCode(err)}` };
    }
  }

  private async history(o: OrderRecord): Promise<void> {
    const ours = await this.deps.gateway.fillsOfOrder({ market: o.market, clientOrderId: o.clientOrderId });
    if (ours.length > 0) this.deps.fills.apply(ours);
  }

  /** Fetches and applies the deals of one order now (a reply showed it filled); failures are logged. */
  confirmFills(o: OrderRecord): Promise<void> {
    return this.historyIfReachable(o);
  }

  /** The order's fills if the venue answers; without them the looks and grace period decide. */
  private async historyIfReachable(o: OrderRecord): Promise<void> {
    try {
      await this.history(o);
    } catch (err) {
      this.deps.logger.warn({ clientOrderId: o.clientOrderId, code: errorCode(err) }, 'history lookup failed');
    }
  }

  private async findInConditional(o: OrderRecord): Promise<{ orderId: number; otoId: number } | undefined> {
    for (const r of await this.deps.gateway.protectiveOrders([o.market])) {
      if (r.kind === 'oto' && r.parent.clientOrderId === o.clientOrderId) return { orderId: r.parent.orderId, otoId: r.id };
    }
    return undefined;
  }

  async resolveOne(start: OrderRecord): Promise<ResolveOutcome> {
    const cid = start.clientOrderId;
    await this.history(start);
    const o = this.deps.journal.mustGet(cid);
    if (o.state === 'FILLED') return { clientOrderId: cid, verdict: 'FILLED', evidence: 'executed history' };
    if (o.state !== 'UNKNOWN' && o.state !== 'PENDING_CANCEL') return { clientOrderId: cid, verdict: o.state, evidence: 'settled meanwhile' };
    const resting = o.kind === 'collateral' && o.state === 'UNKNOWN' ? await this.restingUnderOto(o) : undefined;
    return resting ?? (await this.probe(o));
  }

  /** A collateral parent the conditional listing shows resting under its OTO. */
  private async restingUnderOto(o: OrderRecord): Promise<ResolveOutcome | undefined> {
    const found = await this.findInConditional(o);
    if (found === undefined) return undefined;
    const cid = o.clientOrderId;
    this.deps.store.children.setOtoId(cid, found.otoId, this.deps.clock.now());
    const v = this.move(cid, o.filledBase.gt(0) ? 'PARTIALLY_FILLED' : 'OPEN', 'resolved: resting under its OTO', found);
    return { clientOrderId: cid, verdict: v, evidence: 'conditional listing' };
  }

  /** A cancel by clientOrderId as a probe: success proves the order existed (and ends it). */
  private async probe(o: OrderRecord): Promise<ResolveOutcome> {
    const cid = o.clientOrderId;
    try {
      const v = await this.deps.gateway.cancelOrder({ market: o.market, clientOrderId: cid });
      const to = stateOfVenueOrder(v) === 'FILLED' ? 'FILLED' : 'CANCELLED';
      const ids = { orderId: v.orderId, ...(v.oto === undefined ? {} : { otoId: v.oto.otoId }) };
      const s = this.move(cid, to, 'resolved: cancel probe succeeded', { ...ids, ...reportedPatch(o, v) }, `status ${v.rawStatus}`);
      this.deps.store.fills.attribute(v.orderId, o.strategyId, cid);
      return { clientOrderId: cid, verdict: s, evidence: 'cancel probe' };
    } catch (err) {
      if (err instanceof InvalidOrderError && err.kind === 'order_not_found') {
        const s = await this.settleNotFound(this.deps.journal.mustGet(cid), 'probe', true);
        return { clientOrderId: cid, verdict: s ?? 'pending', evidence: 'cancel probe: not found' };
      }
      this.bump(this.deps.journal.mustGet(cid));
      return { clientOrderId: cid, verdict: 'pending', evidence: `cancel probe: ${errorCode(err)}` };
    }
  }

  /**
   * "Order not found" on a cancel or probe: filled (history decides), or cancelled, or never
   * placed. Returns the settled state, or null while the grace period / looks are not over.
   */
  async settleNotFound(o: OrderRecord, why: 'cancel' | 'probe', historyFresh = false): Promise<OrderState | null> {
    if (!historyFresh) await this.historyIfReachable(o);
    const cur = this.deps.journal.mustGet(o.clientOrderId);
    if (cur.state === 'FILLED') return 'FILLED';
    const now = this.deps.clock.now();
    const since = cur.unknownSinceMs ?? now;
    const looks = cur.resolveLooks + 1;
    if (now - since >= this.opts.graceMs && looks >= this.opts.minLooks) return this.giveUp(cur, why);
    this.deps.journal.note(cur.clientOrderId, { resolveLooks: looks, unknownSinceMs: since });
    return null;
  }

  /** Enough looks over the grace period: no longer open. Lost when nothing ever proved it existed. */
  private giveUp(cur: OrderRecord, why: 'cancel' | 'probe'): OrderState {
    const existed = cur.filledBase.gt(0) || cur.orderId !== null;
    const reason = existed ? `not found after ${why}: no longer open` : 'lost: no evidence it was ever placed';
    const s = this.move(cur.clientOrderId, 'CANCELLED', reason);
    if (!existed) {
      this.deps.store.tx(() => this.deps.store.alerts.add('order_lost', cur.clientOrderId, reason, this.deps.clock.now()));
      this.deps.logger.warn({ clientOrderId: cur.clientOrderId }, 'order given up as lost (will still receive fills)');
    }
    return s;
  }
}
