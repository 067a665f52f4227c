/**
 * The durable order pipeline. Every order is journaled as PENDING with its deterministic
 * clientOrderId in ONE transaction before any request leaves; each reply (or its absence) is
 * applied to its own intent; ambiguous outcomes become UNKNOWN and go to the resolver, which
 * settles them from evidence and never resends. Order state is the journal's (order-journal.ts):
 * this class decides what a reply means, the journal records it.
 */
import type { Clock } from '../core/clock.js';
import { type AmbiguousOutcomeError, errorCode, errorMessage, InvalidOrderError, InvalidRequestError } from '../core/errors.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type {
  BulkItemResult,
  CollateralOrderRequest,
  LimitOrderRequest,
  VenueOrder,
} from '../model/venue-orders.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import type { FlexCloseOutcome, FlexClosePlan, FlexCloser } from './flex-close.js';
import type { OrderJournal, OrderPatch } from './order-journal.js';
import {
  classifyPlacementError,
  reportedPatch,
  stateOfVenueOrder,
  type CancelOutcome,
  type CollateralOrderSpec,
  type LimitOrderSpec,
  type PlaceOutcome,
} from './order-outcomes.js';
import type { Resolver } from './resolver.js';

export type { CancelOutcome, CollateralOrderSpec, LimitOrderSpec, PlaceOutcome } from './order-outcomes.js';
export type { FlexCloseOutcome, FlexClosePlan } from './flex-close.js';

export interface OrderManagerDeps {
  store: Store;
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  journal: OrderJournal;
  /** Settles a cancel's "not found" from evidence (the same resolver the reconciler runs). */
  resolver: Resolver;
  flex: FlexCloser;
}

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

function collateralRequest(s: CollateralOrderSpec, clientOrderId: string): CollateralOrderRequest {
  return {
    ...limitRequest(s, clientOrderId),
    ...(s.stopLoss === undefined ? {} : { stopLoss: s.stopLoss }),
    ...(s.takeProfit === undefined ? {} : { takeProfit: s.takeProfit }),
    ...(s.positionSide === undefined ? {} : { positionSide: s.positionSide }),
  };
}

/** The fields every order log line carries (docs/operations.md › Logs). */
function orderFields(o: OrderRecord): Record<string, string> {
  return { strategy: o.strategyId, clientOrderId: o.clientOrderId, market: o.market, side: o.side, price: o.price.toFixed(), amount: o.amount.toFixed() };
}

export class OrderManager {
  constructor(private readonly deps: OrderManagerDeps) {}

  /**
   * Places limit orders: journals them all (one transaction), then sends them; the gateway sends
   * one request (≤ 20 orders) at a time and each item's outcome is applied to its own intent
   * before the next request leaves.
   */
  async placeLimitOrders(strategyId: string, specs: readonly LimitOrderSpec[]): Promise<PlaceOutcome[]> {
    if (specs.length === 0) return [];
    const { journal, store } = this.deps;
    const ids = journal.open(strategyId, specs, 'limit');
    // Every journaled id is in flight until its own outcome is applied, so a concurrent resolver
    // pass never mistakes a later request's orders for orphans of a previous process.
    journal.begin(ids);
    const waiting = new Set(ids);
    const out = new Map<string, PlaceOutcome>();
    const requests = specs.map((s, i) => limitRequest(s, ids[i] as string));
    const apply = (results: BulkItemResult[]): void => {
      for (const o of store.tx(() => results.map((r) => this.applyBulkItem(r)))) out.set(o.clientOrderId, o);
      journal.end(results.map((r) => r.clientOrderId));
    };
    try {
      // A venue that answers at once (in process) is asked without a promise per request; the
      // outcomes, and when each is applied, are the same.
      if (this.deps.gateway.submitLimitOrdersNow !== undefined) for (const results of this.sentNow(requests, waiting)) apply(results);
      else for await (const results of this.sent(requests, waiting)) apply(results);
    } finally {
      journal.end(ids);
    }
    if (this.anyReported(ids)) await this.confirmReportedFills(ids);
    return ids.map((id) => out.get(id) as PlaceOutcome);
  }

  /**
   * Whether a reply showed one of `ids` (partly) filled beyond its known deals (the usual reply:
   * none). When none is, `confirmReportedFills` would do nothing: it is not called, not awaited.
   */
  private anyReported(ids: readonly string[]): boolean {
    return ids.some((id) => {
      const o = this.deps.journal.get(id);
      return o !== undefined && o.reportedFilledBase.gt(o.filledBase);
    });
  }

  /**
   * Orders a reply showed (partly) filled: their deals are fetched now, so positions, the risk
   * gate and the strategy's onFill need not wait for the next history scan. A failed lookup only
   * leaves the fill provisional until that scan.
   */
  private async confirmReportedFills(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const o = this.deps.journal.get(id);
      if (o !== undefined && o.reportedFilledBase.gt(o.filledBase)) await this.deps.resolver.confirmFills(o);
    }
  }

  /**
   * The gateway's outcomes, each id once (`waiting` shrinks as they come). The gateway throws
   * only before sending; should it throw anyway, or leave an id without an outcome, the ids still
   * waiting get one from the error (never a plain rejection: see thrownItems).
   */
  private async *sent(requests: LimitOrderRequest[], waiting: Set<string>): AsyncGenerator<BulkItemResult[]> {
    try {
      for await (const results of this.deps.gateway.submitLimitOrders(requests)) {
        yield results.filter((r) => waiting.delete(r.clientOrderId));
      }
    } catch (err) {
      yield this.thrownItems([...waiting], err);
      waiting.clear();
    }
    if (waiting.size > 0) yield this.thrownItems([...waiting], new Error('bulk reply item missing or out of order'));
  }

  /** `sent` over a gateway that answers at once (`submitLimitOrdersNow`), item for item the same. */
  private *sentNow(requests: LimitOrderRequest[], waiting: Set<string>): Generator<BulkItemResult[]> {
    try {
      for (const results of this.deps.gateway.submitLimitOrdersNow?.(requests) ?? []) {
        yield results.filter((r) => waiting.delete(r.clientOrderId));
      }
    } catch (err) {
      yield this.thrownItems([...waiting], err);
      waiting.clear();
    }
    if (waiting.size > 0) yield this.thrownItems([...waiting], new Error('bulk reply item missing or out of order'));
  }

  /** Outcomes for ids whose request threw: a refusal then proves only that nothing was sent. */
  private thrownItems(ids: string[], err: unknown): BulkItemResult[] {
    const c = classifyPlacementError(err);
    const error = err as AmbiguousOutcomeError;
    return ids.map((clientOrderId): BulkItemResult =>
      c.kind === 'unknown' ? { status: 'unknown', clientOrderId, error } : { status: 'not_sent', clientOrderId, error },
    );
  }

  private applyBulkItem(r: BulkItemResult): PlaceOutcome {
    const outcome =
      r.status === 'placed' ? this.applyPlaced(r.clientOrderId, r.order)
      : r.status === 'not_sent' ? this.notSent(r.clientOrderId, r.error.code, r.error.message)
      : this.applyError(r.clientOrderId, r.error);
    this.logPlacement(outcome);
    return outcome;
  }

  /** One line per placement: info when the venue took it, warn otherwise (the unknown case has its own warning). */
  private logPlacement(outcome: PlaceOutcome): void {
    const { logger } = this.deps;
    // The line's fields are built only when its level is logged (a backtest logs errors only).
    if (!logger.isLevelEnabled(outcome.status === 'placed' ? 'info' : 'warn')) return;
    const o = this.deps.journal.get(outcome.clientOrderId);
    if (o === undefined || outcome.status === 'unknown') return;
    if (outcome.status === 'placed') this.deps.logger.info({ ...orderFields(o), orderId: outcome.orderId, state: outcome.state }, 'order placed');
    else this.deps.logger.warn({ ...orderFields(o), outcome: outcome.status, code: outcome.code }, 'order not placed');
  }

  private notSent(clientOrderId: string, code: string, message: string): PlaceOutcome {
    this.deps.journal.move(clientOrderId, 'REJECTED', `not_sent:${code}`, {}, `${code}: ${message}`);
    return { status: 'not_sent', clientOrderId, code, message };
  }

  private applyPlaced(clientOrderId: string, v: VenueOrder): PlaceOutcome {
    const { journal, store, clock } = this.deps;
    const o = journal.mustGet(clientOrderId);
    // Built field by field (once per placement): spreads of optional parts take V8's slow path.
    const patch: OrderPatch = { orderId: v.orderId, unknownSinceMs: null };
    if (v.oto !== undefined) patch.otoId = v.oto.otoId;
    const reported = reportedPatch(o, v).reported;
    if (reported !== undefined) patch.reported = reported;
    const state = journal.move(clientOrderId, stateOfVenueOrder(v), 'placed', patch, `status ${v.rawStatus}`);
    if (v.oto !== undefined) store.children.setOtoId(clientOrderId, v.oto.otoId, clock.now());
    // Fills the reconciler stored before the orderId was known become ours now.
    store.fills.attribute(v.orderId, o.strategyId, clientOrderId);
    const outcome: PlaceOutcome = { status: 'placed', clientOrderId, orderId: v.orderId, state };
    if (v.oto !== undefined) outcome.otoId = v.oto.otoId;
    return outcome;
  }

  private applyError(clientOrderId: string, err: unknown): PlaceOutcome {
    const c = classifyPlacementError(err);
    if (c.kind === 'rejected') {
      this.deps.journal.move(clientOrderId, 'REJECTED', c.code, {}, `${c.code}: ${c.message}`);
      return { status: 'rejected', clientOrderId, code: c.code, message: c.message };
    }
    if (c.kind === 'not_sent') return this.notSent(clientOrderId, c.code, c.message);
    this.deps.journal.markUnknown(clientOrderId, c.code);
    this.deps.logger.warn({ clientOrderId, code: c.code }, 'order outcome unknown; the resolver will settle it');
    return { status: 'unknown', clientOrderId, message: c.message };
  }

  /** Places one collateral order; stop-loss / take-profit are journaled as its children. */
  async placeCollateralOrder(strategyId: string, spec: CollateralOrderSpec): Promise<PlaceOutcome> {
    const { journal, store } = this.deps;
    const [clientOrderId] = journal.open(strategyId, [spec], 'collateral') as [string];
    journal.begin([clientOrderId]);
    let v: VenueOrder;
    try {
      v = await this.deps.gateway.submitCollateralOrder(collateralRequest(spec, clientOrderId));
    } catch (err) {
      journal.end([clientOrderId]);
      const failed = store.tx(() => this.applyError(clientOrderId, err));
      this.logPlacement(failed);
      return failed;
    }
    journal.end([clientOrderId]);
    const outcome = store.tx(() => this.applyPlaced(clientOrderId, v));
    this.logPlacement(outcome);
    if (this.anyReported([clientOrderId])) await this.confirmReportedFills([clientOrderId]);
    return outcome;
  }

  /**
   * Cancels one order. PENDING_CANCEL is journaled first and stays until evidence. "Order not
   * found" means cancelled OR filled: executed history decides; without proof it stays
   * PENDING_CANCEL for the resolver.
   */
  async cancelOrder(strategyId: string, clientOrderId: string, reason = 'strategy intent'): Promise<CancelOutcome> {
    const o = this.deps.journal.get(clientOrderId);
    if (o === undefined || o.strategyId !== strategyId) return { status: 'skipped', clientOrderId, state: 'missing' };
    if (o.state !== 'OPEN' && o.state !== 'PARTIALLY_FILLED') return { status: 'skipped', clientOrderId, state: o.state };
    const outcome = await this.cancelLive(o);
    const level = outcome.status === 'cancelled' || outcome.status === 'filled' ? 'info' : 'warn';
    this.deps.logger[level]({ ...orderFields(o), reason, outcome: outcome.status }, 'order cancel');
    return outcome;
  }

  private async cancelLive(o: OrderRecord): Promise<CancelOutcome> {
    const { journal } = this.deps;
    const clientOrderId = o.clientOrderId;
    journal.move(clientOrderId, 'PENDING_CANCEL', 'cancel requested');
    journal.begin([clientOrderId]);
    try {
      const ref = o.orderId !== null ? { market: o.market, orderId: o.orderId } : { market: o.market, clientOrderId };
      const v = await this.deps.gateway.cancelOrder(ref);
      const target = stateOfVenueOrder(v) === 'FILLED' ? 'FILLED' : 'CANCELLED';
      const patch = { unknownSinceMs: null, ...reportedPatch(journal.mustGet(clientOrderId), v) };
      journal.move(clientOrderId, target, 'cancel confirmed', patch, `status ${v.rawStatus}`);
      if (this.anyReported([clientOrderId])) await this.confirmReportedFills([clientOrderId]);
      return { status: target === 'FILLED' ? 'filled' : 'cancelled', clientOrderId };
    } catch (err) {
      return await this.cancelFailed(o, err);
    } finally {
      journal.end([clientOrderId]);
    }
  }

  /** A cancel that did not confirm: "not found" asks the evidence; a refusal restores; the rest waits. */
  private async cancelFailed(before: OrderRecord, err: unknown): Promise<CancelOutcome> {
    const { journal, clock } = this.deps;
    const clientOrderId = before.clientOrderId;
    if (err instanceof InvalidOrderError && err.kind === 'order_not_found') {
      const settled = await this.deps.resolver.settleNotFound(journal.mustGet(clientOrderId), 'cancel');
      if (settled === 'FILLED') return { status: 'filled', clientOrderId };
      if (settled === 'CANCELLED') return { status: 'cancelled', clientOrderId };
      return { status: 'pending', clientOrderId, message: 'not found; waiting for evidence' };
    }
    if (err instanceof InvalidRequestError) {
      // Provably refused: the order keeps resting as before (unless fills moved it meanwhile).
      journal.revertCancel(clientOrderId, before.state, `cancel refused:${err.code}`);
      return { status: 'rejected', clientOrderId, code: err.code, message: err.message };
    }
    journal.note(clientOrderId, { unknownSinceMs: clock.now(), resolveLooks: 0 });
    return { status: 'pending', clientOrderId, message: `${errorCode(err)}: ${errorMessage(err)}` };
  }

  /** Cancels every live order of a strategy (optionally on one market), one by one. */
  async cancelAll(strategyId: string, market?: string, reason = 'strategy intent'): Promise<CancelOutcome[]> {
    const live = this.deps.store.orders
      .listByStrategy(strategyId, ['OPEN', 'PARTIALLY_FILLED'])
      .filter((o) => market === undefined || o.market === market);
    const out: CancelOutcome[] = [];
    for (const o of live) out.push(await this.cancelOrder(strategyId, o.clientOrderId, reason));
    return out;
  }

  /** Closes a flex investment through the same journal (PENDING before the request). */
  closeFlex(strategyId: string, plan: FlexClosePlan): Promise<FlexCloseOutcome> {
    return this.deps.flex.close(strategyId, plan);
  }
}
