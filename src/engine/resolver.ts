/**
 * Settles orders whose outcome is not known, from evidence only (design.md section 3,
 * failure-modes 1, 3, 4). It never resends and never calls an ambiguous order REJECTED.
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
import type { OrderRecord, OrderState, Store } from '../store/index.js';
import type { FillApplier } from './fill-applier.js';
import { forwardTo, stateOfVenueOrder } from './order-outcomes.js';

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
  fills: FillApplier;
  /** Requests in flight in this process: their PENDING / PENDING_CANCEL rows are not orphans. */
  inFlight: ReadonlySet<string>;
}

export class Resolver {
  private readonly opts: ResolveOptions;
  constructor(
    private readonly d: ResolverDeps,
    opts: Partial<ResolveOptions>,
  ) {
    this.opts = { graceMs: opts.graceMs ?? 30_000, minLooks: opts.minLooks ?? 3 };
  }

  private get(cid: string): OrderRecord {
    const o = this.d.store.orders.get(cid);
    if (o === undefined) throw new Error(`order ${cid} vanished from the journal`);
    return o;
  }

  private move(cid: string, to: OrderState, reason: string, patch: { orderId?: number; otoId?: number } = {}): OrderState {
    return this.d.store.tx(() => {
      const o = this.get(cid);
      const target = forwardTo(o.state, to);
      const full = { ...patch, unknownSinceMs: null };
      if (target === null) {
        this.d.store.orders.patch(cid, full, this.d.clock.now());
        return o.state;
      }
      this.d.store.orders.setState(cid, o.state, target, reason, this.d.clock.now(), full);
      return target;
    });
  }

  private bump(o: OrderRecord): void {
    const now = this.d.clock.now();
    this.d.store.tx(() => this.d.store.orders.patch(o.clientOrderId, { resolveLooks: o.resolveLooks + 1, unknownSinceMs: o.unknownSinceMs ?? now }, now));
  }

  /** Turns orphans of a previous process into UNKNOWN, then looks at everything unresolved. */
  async resolveAll(): Promise<ResolveOutcome[]> {
    const now = this.d.clock.now();
    this.d.store.tx(() => {
      for (const o of this.d.store.orders.listByState(['PENDING'])) {
        if (this.d.inFlight.has(o.clientOrderId)) continue;
        // Journaled, maybe sent, reply never recorded (crash): ambiguous by definition.
        this.d.store.orders.setState(o.clientOrderId, 'PENDING', 'UNKNOWN', 'pending without a recorded reply', now, { unknownSinceMs: now, resolveLooks: 0 });
      }
    });
    const out: ResolveOutcome[] = [];
    for (const o of this.d.store.orders.listByState(['UNKNOWN', 'PENDING_CANCEL'])) {
      if (this.d.inFlight.has(o.clientOrderId)) continue;
      try {
        out.push(await this.resolveOne(o));
      } catch (err) {
        this.d.logger.warn({ clientOrderId: o.clientOrderId, code: errorCode(err) }, 'resolver look failed; will retry');
        this.bump(o);
        out.push({ clientOrderId: o.clientOrderId, verdict: 'pending', evidence: `error ${errorCode(err)}` });
      }
    }
    return out;
  }

  private async history(o: OrderRecord): Promise<void> {
    const ours = await this.d.gateway.fillsOfOrder({ market: o.market, clientOrderId: o.clientOrderId });
    if (ours.length > 0) this.d.fills.apply(ours);
  }

  private async findInConditional(o: OrderRecord): Promise<{ orderId: number; otoId: number } | undefined> {
    for (const r of await this.d.gateway.protectiveOrders([o.market])) {
      if (r.kind === 'oto' && r.parent.clientOrderId === o.clientOrderId) return { orderId: r.parent.orderId, otoId: r.id };
    }
    return undefined;
  }

  async resolveOne(start: OrderRecord): Promise<ResolveOutcome> {
    const cid = start.clientOrderId;
    await this.history(start);
    let o = this.get(cid);
    if (o.state === 'FILLED') return { clientOrderId: cid, verdict: 'FILLED', evidence: 'executed history' };
    if (o.state !== 'UNKNOWN' && o.state !== 'PENDING_CANCEL') return { clientOrderId: cid, verdict: o.state, evidence: 'settled meanwhile' };
    if (o.kind === 'collateral' && o.state === 'UNKNOWN') {
      const found = await this.findInConditional(o);
      if (found !== undefined) {
        const to = o.filledBase.gt(0) ? 'PARTIALLY_FILLED' : 'OPEN';
        this.d.store.children.setOtoId(cid, found.otoId, this.d.clock.now());
        const v = this.move(cid, to, 'resolved: resting under its OTO', found);
        return { clientOrderId: cid, verdict: v, evidence: 'conditional listing' };
      }
    }
    try {
      const v = await this.d.gateway.cancelOrder({ market: o.market, clientOrderId: cid });
      const to = stateOfVenueOrder(v) === 'FILLED' ? 'FILLED' : 'CANCELLED';
      const s = this.move(cid, to, 'resolved: cancel probe succeeded', { orderId: v.orderId, ...(v.oto === undefined ? {} : { otoId: v.oto.otoId }) });
      this.d.store.fills.attribute(v.orderId, o.strategyId, cid);
      return { clientOrderId: cid, verdict: s, evidence: 'cancel probe' };
    } catch (err) {
      if (err instanceof InvalidOrderError && err.kind === 'order_not_found') {
        o = this.get(cid);
        const s = await this.settleNotFound(o, 'probe', true);
        return { clientOrderId: cid, verdict: s ?? 'pending', evidence: 'cancel probe: not found' };
      }
      this.bump(this.get(cid));
      return { clientOrderId: cid, verdict: 'pending', evidence: `cancel probe: ${errorCode(err)}` };
    }
  }

  /**
   * "Order not found" on a cancel or probe: filled (history decides), or cancelled, or never
   * placed. Returns the settled state, or null while the grace period / looks are not over.
   */
  async settleNotFound(o: OrderRecord, why: 'cancel' | 'probe', historyFresh = false): Promise<OrderState | null> {
    if (!historyFresh) {
      try {
        await this.history(o);
      } catch (err) {
        this.d.logger.warn({ clientOrderId: o.clientOrderId, code: errorCode(err) }, 'history lookup failed');
      }
    }
    const cur = this.get(o.clientOrderId);
    if (cur.state === 'FILLED') return 'FILLED';
    const now = this.d.clock.now();
    const since = cur.unknownSinceMs ?? now;
    const looks = cur.resolveLooks + 1;
    if (now - since >= this.opts.graceMs && looks >= this.opts.minLooks) {
      const existed = cur.filledBase.gt(0) || cur.orderId !== null;
      const reason = existed ? `not found after ${why}: no longer open` : 'lost: no evidence it was ever placed';
      const s = this.move(cur.clientOrderId, 'CANCELLED', reason);
      if (!existed) {
        this.d.store.tx(() => this.d.store.alerts.add('order_lost', cur.clientOrderId, reason, now));
        this.d.logger.warn({ clientOrderId: cur.clientOrderId }, 'order given up as lost (will still receive fills)');
      }
      return s;
    }
    this.d.store.tx(() => this.d.store.orders.patch(cur.clientOrderId, { resolveLooks: looks, unknownSinceMs: since }, now));
    return null;
  }
}
