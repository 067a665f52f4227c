/**
 * The durable order pipeline. Every order is journaled as PENDING with its deterministic
 * clientOrderId in ONE transaction before any request leaves; each reply (or its absence) is
 * applied to its own intent; ambiguous outcomes become UNKNOWN and go to the resolver, which
 * settles them from evidence and never resends.
 */
import type { Clock } from '../core/clock.js';
import { type AmbiguousOutcomeError, errorCode, errorMessage, InvalidOrderError, InvalidRequestError } from '../core/errors.js';
import { makeClientOrderId } from '../core/ids.js';
import type { BulkItemResult, ExchangeGateway, LimitOrderRequest, VenueOrder } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { NewOrder, OrderRecord, OrderState, Store } from '../store/index.js';
import { FillApplier } from './fill-applier.js';
import { FlexCloser, type FlexCloseOutcome, type FlexClosePlan } from './flex-close.js';
import {
  classifyPlacementError,
  forwardTo,
  stateOfVenueOrder,
  type CancelOutcome,
  type CollateralOrderSpec,
  type LimitOrderSpec,
  type PlaceOutcome,
} from './order-outcomes.js';
import { canTransition, isTerminal } from './order-state.js';
import { clientIdPrefixFor } from './prefix.js';
import { Resolver, type ResolveOptions, type ResolveOutcome } from './resolver.js';

export type { CancelOutcome, CollateralOrderSpec, LimitOrderSpec, PlaceOutcome } from './order-outcomes.js';
export type { ResolveOutcome, ResolveOptions } from './resolver.js';
export type { FlexCloseOutcome, FlexClosePlan } from './flex-close.js';

export interface OrderManagerDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  /** Shared with the reconciler so fills found while resolving are applied the same way. */
  fills?: FillApplier;
  resolve?: Partial<ResolveOptions>;
}

/** @see clientIdPrefixFor */
export const clientIdPrefix = clientIdPrefixFor;

/** The venue request of a journaled limit order. */
function limitRequest(s: LimitOrderSpec, clientOrderId: string): LimitOrderRequest {
  return {
    market: s.market,
    side: s.side,
    amount: s.amount,
    price: s.price,
    clientOrderId,
    ...(s.postOnly === undefined ? {} : { postOnly: s.postOnly }),
    ...(s.ioc === undefined ? {} : { ioc: s.ioc }),
    ...(s.rpi === undefined ? {} : { rpi: s.rpi }),
  };
}

export class OrderManager {
  readonly fills: FillApplier;
  private readonly store: Store;
  private readonly gateway: ExchangeGateway;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly resolver: Resolver;
  private readonly flex: FlexCloser;
  /** clientOrderIds whose request is in flight in this process (PENDING rows not in here are from a past life). */
  private readonly inFlight = new Set<string>();

  constructor(deps: OrderManagerDeps) {
    this.store = deps.store;
    this.gateway = deps.gateway;
    this.clock = deps.clock;
    this.logger = deps.logger;
    this.fills = deps.fills ?? new FillApplier(deps.store, deps.clock, deps.logger);
    this.resolver = new Resolver(
      { store: this.store, gateway: this.gateway, clock: this.clock, logger: this.logger, fills: this.fills, inFlight: this.inFlight },
      deps.resolve ?? {},
    );
    this.flex = new FlexCloser(this.store, this.gateway, this.clock, this.logger, (prefix, n) => this.reserveIds(prefix, n));
  }

  private reserveIds(prefix: string, n: number): string[] {
    const first = this.store.orders.reserveSequence(prefix, n, this.clock.now());
    return Array.from({ length: n }, (_, i) => makeClientOrderId(prefix, first + i));
  }

  /** Moves an order if the transition is legal and forward; returns whether it moved. */
  private move(o: OrderRecord, to: OrderState, reason: string, patch: Parameters<Store['orders']['setState']>[5] = {}): boolean {
    const now = this.clock.now();
    const target = forwardTo(o.state, to);
    if (target === null) {
      if (Object.keys(patch).length > 0) this.store.orders.patch(o.clientOrderId, patch, now);
      return false;
    }
    this.store.orders.setState(o.clientOrderId, o.state, target, reason, now, patch);
    return true;
  }

  private journal(strategyId: string, specs: readonly (LimitOrderSpec | CollateralOrderSpec)[], kind: 'limit' | 'collateral'): string[] {
    const now = this.clock.now();
    return this.store.tx(() => {
      const ids = this.reserveIds(clientIdPrefix(strategyId), specs.length);
      specs.forEach((s, i) => {
        const c = s as CollateralOrderSpec;
        const row: NewOrder = {
          clientOrderId: ids[i] as string,
          strategyId,
          kind,
          market: s.market,
          side: s.side,
          amount: s.amount,
          price: s.price,
          postOnly: s.postOnly ?? false,
          ioc: s.ioc ?? false,
          rpi: s.rpi ?? false,
          stopLoss: c.stopLoss,
          takeProfit: c.takeProfit,
          positionSide: c.positionSide,
        };
        this.store.orders.insertPending(row, now);
        if (c.stopLoss !== undefined) this.store.children.add(row.clientOrderId, strategyId, 'stop_loss', c.stopLoss, now);
        if (c.takeProfit !== undefined) this.store.children.add(row.clientOrderId, strategyId, 'take_profit', c.takeProfit, now);
      });
      return ids;
    });
  }

  /**
   * Places limit orders: journals them all (one transaction), then sends them; the gateway sends
   * one request (≤ 20 orders) at a time and each item's outcome is applied to its own intent
   * before the next request leaves.
   */
  async placeLimitOrders(strategyId: string, specs: readonly LimitOrderSpec[]): Promise<PlaceOutcome[]> {
    if (specs.length === 0) return [];
    const ids = this.journal(strategyId, specs, 'limit');
    // Every journaled id is "in flight" until its own outcome is applied, so a concurrent
    // resolver pass never mistakes a later request's orders for orphans of a previous process.
    const waiting = new Set(ids);
    for (const id of ids) this.inFlight.add(id);
    const out = new Map<string, PlaceOutcome>();
    try {
      for await (const results of this.sent(specs.map((s, i) => limitRequest(s, ids[i] as string)), waiting)) {
        for (const o of this.store.tx(() => results.map((r) => this.applyBulkItem(r)))) out.set(o.clientOrderId, o);
        for (const r of results) this.inFlight.delete(r.clientOrderId);
      }
    } finally {
      for (const id of ids) this.inFlight.delete(id);
    }
    return ids.map((id) => out.get(id) as PlaceOutcome);
  }

  /**
   * The gateway's outcomes, each id once (`waiting` shrinks as they come). The gateway throws
   * only before sending; should it throw anyway, or leave an id without an outcome, the ids still
   * waiting get one from the error (never a plain rejection: see applyThrown).
   */
  private async *sent(requests: LimitOrderRequest[], waiting: Set<string>): AsyncGenerator<BulkItemResult[]> {
    try {
      for await (const results of this.gateway.submitLimitOrders(requests)) {
        const ours = results.filter((r) => waiting.delete(r.clientOrderId));
        yield ours;
      }
    } catch (err) {
      yield this.thrownItems([...waiting], err);
      waiting.clear();
    }
    if (waiting.size > 0) yield this.thrownItems([...waiting], new Error('bulk reply item missing or out of order'));
  }

  /** Outcomes for ids whose request threw: refusals then prove nothing was sent for them. */
  private thrownItems(ids: string[], err: unknown): BulkItemResult[] {
    const c = classifyPlacementError(err);
    const error = err as AmbiguousOutcomeError;
    return ids.map((clientOrderId): BulkItemResult =>
      c.kind === 'unknown' ? { status: 'unknown', clientOrderId, error } : { status: 'not_sent', clientOrderId, error },
    );
  }

  private applyBulkItem(r: BulkItemResult): PlaceOutcome {
    const { clientOrderId } = r;
    if (r.status === 'placed') return this.applyPlaced(clientOrderId, r.order);
    if (r.status === 'not_sent') {
      const o = this.mustGet(clientOrderId);
      this.move(o, 'REJECTED', `not_sent:${r.error.code}`);
      return { status: 'not_sent', clientOrderId, code: r.error.code, message: r.error.message };
    }
    return this.applyError(clientOrderId, r.error);
  }

  private mustGet(clientOrderId: string): OrderRecord {
    const o = this.store.orders.get(clientOrderId);
    if (o === undefined) throw new Error(`order ${clientOrderId} vanished from the journal`);
    return o;
  }

  private applyPlaced(clientOrderId: string, v: VenueOrder): PlaceOutcome {
    const o = this.mustGet(clientOrderId);
    const to = stateOfVenueOrder(v);
    const patch = { orderId: v.orderId, ...(v.oto === undefined ? {} : { otoId: v.oto.otoId }), unknownSinceMs: null };
    this.move(o, to, 'placed', patch);
    if (v.oto !== undefined) this.store.children.setOtoId(clientOrderId, v.oto.otoId, this.clock.now());
    // Fills the reconciler stored before the orderId was known become ours now.
    this.store.fills.attribute(v.orderId, o.strategyId, clientOrderId);
    const now = this.mustGet(clientOrderId);
    return {
      status: 'placed',
      clientOrderId,
      orderId: v.orderId,
      state: now.state,
      ...(v.oto === undefined ? {} : { otoId: v.oto.otoId }),
    };
  }

  private applyError(clientOrderId: string, err: unknown): PlaceOutcome {
    const o = this.mustGet(clientOrderId);
    const c = classifyPlacementError(err);
    if (c.kind === 'rejected') {
      this.move(o, 'REJECTED', c.code);
      return { status: 'rejected', clientOrderId, code: c.code, message: c.message };
    }
    if (c.kind === 'not_sent') {
      this.move(o, 'REJECTED', `not_sent:${c.code}`);
      return { status: 'not_sent', clientOrderId, code: c.code, message: c.message };
    }
    if (canTransition(o.state, 'UNKNOWN')) {
      this.store.orders.setState(clientOrderId, o.state, 'UNKNOWN', c.code, this.clock.now(), { unknownSinceMs: this.clock.now(), resolveLooks: 0 });
    }
    this.logger.warn({ clientOrderId, code: c.code }, 'order outcome unknown; the resolver will settle it');
    return { status: 'unknown', clientOrderId, message: c.message };
  }

  /** Places one collateral order; stop-loss / take-profit are journaled as its children. */
  async placeCollateralOrder(strategyId: string, spec: CollateralOrderSpec): Promise<PlaceOutcome> {
    const [clientOrderId] = this.journal(strategyId, [spec], 'collateral') as [string];
    this.inFlight.add(clientOrderId);
    try {
      const v = await this.gateway.submitCollateralOrder({
        market: spec.market,
        side: spec.side,
        amount: spec.amount,
        price: spec.price,
        clientOrderId,
        ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
        ...(spec.ioc === undefined ? {} : { ioc: spec.ioc }),
        ...(spec.rpi === undefined ? {} : { rpi: spec.rpi }),
        ...(spec.stopLoss === undefined ? {} : { stopLoss: spec.stopLoss }),
        ...(spec.takeProfit === undefined ? {} : { takeProfit: spec.takeProfit }),
        ...(spec.positionSide === undefined ? {} : { positionSide: spec.positionSide }),
      });
      this.inFlight.delete(clientOrderId);
      return this.store.tx(() => this.applyPlaced(clientOrderId, v));
    } catch (err) {
      this.inFlight.delete(clientOrderId);
      return this.store.tx(() => this.applyError(clientOrderId, err));
    }
  }

  /**
   * Cancels one order. PENDING_CANCEL is journaled first and stays until evidence. "Order not
   * found" means cancelled OR filled: executed history decides; without proof it stays
   * PENDING_CANCEL for the resolver.
   */
  async cancelOrder(strategyId: string, clientOrderId: string): Promise<CancelOutcome> {
    const o = this.store.orders.get(clientOrderId);
    if (o === undefined || o.strategyId !== strategyId) return { status: 'skipped', clientOrderId, state: 'missing' };
    if (o.state !== 'OPEN' && o.state !== 'PARTIALLY_FILLED') return { status: 'skipped', clientOrderId, state: o.state };
    const previous = o.state;
    this.store.tx(() => this.store.orders.setState(clientOrderId, previous, 'PENDING_CANCEL', 'cancel requested', this.clock.now()));
    this.inFlight.add(clientOrderId);
    try {
      const v = await this.gateway.cancelOrder(
        o.orderId !== null ? { market: o.market, orderId: o.orderId } : { market: o.market, clientOrderId },
      );
      const to = stateOfVenueOrder(v);
      const target = to === 'FILLED' ? 'FILLED' : 'CANCELLED';
      this.store.tx(() => this.move(this.mustGet(clientOrderId), target, 'cancel confirmed', { unknownSinceMs: null }));
      return { status: target === 'FILLED' ? 'filled' : 'cancelled', clientOrderId };
    } catch (err) {
      if (err instanceof InvalidOrderError && err.kind === 'order_not_found') {
        const settled = await this.resolver.settleNotFound(this.mustGet(clientOrderId), 'cancel');
        if (settled === 'FILLED') return { status: 'filled', clientOrderId };
        if (settled === 'CANCELLED') return { status: 'cancelled', clientOrderId };
        return { status: 'pending', clientOrderId, message: 'not found; waiting for evidence' };
      }
      if (err instanceof InvalidRequestError) {
        // Provably refused: the order keeps resting as before (unless fills moved it meanwhile).
        this.store.tx(() => {
          const cur = this.mustGet(clientOrderId);
          if (cur.state === 'PENDING_CANCEL') {
            const back = cur.filledBase.gt(0) ? 'PARTIALLY_FILLED' : previous;
            this.store.orders.setState(clientOrderId, 'PENDING_CANCEL', back, `cancel refused:${err.code}`, this.clock.now());
          }
        });
        return { status: 'rejected', clientOrderId, code: err.code, message: err.message };
      }
      this.store.tx(() => this.store.orders.patch(clientOrderId, { unknownSinceMs: this.clock.now(), resolveLooks: 0 }, this.clock.now()));
      return { status: 'pending', clientOrderId, message: `${errorCode(err)}: ${errorMessage(err)}` };
    } finally {
      this.inFlight.delete(clientOrderId);
    }
  }

  /** Cancels every live order of a strategy (optionally on one market), one by one. */
  async cancelAll(strategyId: string, market?: string): Promise<CancelOutcome[]> {
    const live = this.store.orders
      .listByStrategy(strategyId, ['OPEN', 'PARTIALLY_FILLED'])
      .filter((o) => market === undefined || o.market === market);
    const out: CancelOutcome[] = [];
    for (const o of live) out.push(await this.cancelOrder(strategyId, o.clientOrderId));
    return out;
  }

  /** Closes a flex investment through the same journal (PENDING before the request). */
  closeFlex(strategyId: string, plan: FlexClosePlan): Promise<FlexCloseOutcome> {
    return this.flex.close(strategyId, plan);
  }

  /**
   * Settles UNKNOWN orders (and PENDING_CANCEL ones waiting for evidence, and PENDING rows left by
   * a previous process) from evidence. See src/engine/resolver.ts.
   */
  async resolveUnknown(): Promise<ResolveOutcome[]> {
    const out = await this.resolver.resolveAll();
    out.push(...(await this.flex.resolveUnknown()));
    return out;
  }

  /** True when no order or flex close awaits a verdict. */
  allResolved(): boolean {
    return this.store.orders.listByState(['UNKNOWN', 'PENDING']).length === 0 && this.flex.pendingCount() === 0;
  }

  /** Orders in a terminal state never change again (helper for callers). */
  static isFinal(o: OrderRecord): boolean {
    return isTerminal(o.state);
  }
}
