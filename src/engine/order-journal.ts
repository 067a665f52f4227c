/**
 * The one owner of order state (in the spirit of Hummingbot's ClientOrderTracker). It journals
 * new orders before anything is sent, alone moves their state, and knows which requests are in
 * flight in this process. The order manager, resolver, fill applier and flex closer all go
 * through it, so the state machine's rules (src/engine/order-state.ts) hold in one place:
 *  - `move`: evidence moves an order forward only (a late reply must not undo what fills
 *    already proved), and only along legal transitions;
 *  - `markUnknown` and `revertCancel`: the two legal sideways moves, each for its one cause
 *    (an ambiguous reply; a cancel the venue provably refused).
 */
import type { Clock } from '../core/clock.js';
import { makeClientOrderId } from '../core/ids.js';
import type { OrderState } from '../core/orders.js';
import type { Store } from '../store/index.js';
import type { NewOrder, OrderRecord } from '../model/journal.js';
import { forwardTo, type CollateralOrderSpec, type LimitOrderSpec } from './order-outcomes.js';
import { canTransition, isTerminal } from './order-state.js';
import { clientIdPrefixFor } from './prefix.js';

/** Fields written along with (or, when the state stays, instead of) a state change. */
export type OrderPatch = Parameters<Store['orders']['patch']>[1];

type OrderKind = 'limit' | 'collateral';

function newOrder(strategyId: string, kind: OrderKind, clientOrderId: string, s: LimitOrderSpec | CollateralOrderSpec): NewOrder {
  const c = s as CollateralOrderSpec;
  return {
    clientOrderId,
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
}

export class OrderJournal {
  /** Ids whose request is in flight in this process (PENDING rows not in here are from a past life). */
  private readonly inFlight = new Set<string>();
  private readonly finalListeners: (() => void)[] = [];
  /** Each strategy's clientOrderId prefix, reduced once (a pure function of the id; one entry per strategy). */
  private readonly prefixes = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `fn` in the caller's transaction when one is open (the order manager and the fill
   * applier apply a reply or a batch in one), else in its own. Joining costs no savepoint: a
   * failure inside fails the caller's transaction as a whole, and no caller catches one inside it.
   */
  private atomically<T>(fn: () => T): T {
    return this.store.orders.inTransaction ? fn() : this.store.tx(fn);
  }

  /** `n` fresh clientOrderIds of a prefix, never reused (the sequence is stored). */
  reserveIds(prefix: string, n: number): string[] {
    const first = this.store.orders.reserveSequence(prefix, n, this.clock.now());
    return Array.from({ length: n }, (_, i) => makeClientOrderId(prefix, first + i));
  }

  /** Journals new orders as PENDING, with their stop-loss / take-profit children, in ONE transaction. */
  open(strategyId: string, specs: readonly (LimitOrderSpec | CollateralOrderSpec)[], kind: OrderKind): string[] {
    const now = this.clock.now();
    return this.store.tx(() => {
      const ids = this.reserveIds(this.prefixOf(strategyId), specs.length);
      specs.forEach((s, i) => {
        const row = newOrder(strategyId, kind, ids[i] as string, s);
        this.store.orders.insertPending(row, now);
        if (row.stopLoss !== undefined) this.store.children.add(row.clientOrderId, strategyId, 'stop_loss', row.stopLoss, now);
        if (row.takeProfit !== undefined) this.store.children.add(row.clientOrderId, strategyId, 'take_profit', row.takeProfit, now);
      });
      return ids;
    });
  }

  private prefixOf(strategyId: string): string {
    let prefix = this.prefixes.get(strategyId);
    if (prefix === undefined) this.prefixes.set(strategyId, (prefix = clientIdPrefixFor(strategyId)));
    return prefix;
  }

  get(clientOrderId: string): OrderRecord | undefined {
    return this.store.orders.get(clientOrderId);
  }

  mustGet(clientOrderId: string): OrderRecord {
    const o = this.store.orders.get(clientOrderId);
    if (o === undefined) throw new Error(`order ${clientOrderId} vanished from the journal`);
    return o;
  }

  begin(ids: Iterable<string>): void {
    for (const id of ids) this.inFlight.add(id);
  }

  end(ids: Iterable<string>): void {
    for (const id of ids) this.inFlight.delete(id);
  }

  isInFlight(id: string): boolean {
    return this.inFlight.has(id);
  }

  /**
   * Moves an order to `to` if that is forward and legal; `patch` is written either way (nothing
   * is written when the state stays and the patch is empty). Returns the state afterwards.
   */
  move(clientOrderId: string, to: OrderState, reason: string, patch: OrderPatch = {}, venue: string | null = null): OrderState {
    const moved = this.atomically(() => {
      const o = this.mustGet(clientOrderId);
      const target = forwardTo(o.state, to);
      const now = this.clock.now();
      if (target !== null) {
        this.store.orders.setState(clientOrderId, o.state, target, reason, now, patch);
        // The final state is recorded with the move: the strategy's onOrder hears of it once.
        if (isTerminal(target)) this.store.finals.record({ clientOrderId, strategyId: o.strategyId, state: target, reason, venue, atMs: now });
        return { state: target, final: isTerminal(target) };
      }
      if (Object.keys(patch).length > 0) this.store.orders.patch(clientOrderId, patch, now);
      return { state: o.state, final: false };
    });
    if (moved.final) for (const l of this.finalListeners) l();
    return moved.state;
  }

  /**
   * `listener` hears that an order reached a final state (recorded in `store.finals`). It may be
   * called inside a caller's transaction: read the records once the current task is done.
   */
  onFinal(listener: () => void): void {
    this.finalListeners.push(listener);
  }

  /** The outcome of a request is ambiguous: UNKNOWN (where legal) with a fresh resolution clock. */
  markUnknown(clientOrderId: string, reason: string): boolean {
    return this.atomically(() => {
      const o = this.mustGet(clientOrderId);
      if (!canTransition(o.state, 'UNKNOWN')) return false;
      const now = this.clock.now();
      this.store.orders.setState(clientOrderId, o.state, 'UNKNOWN', reason, now, { unknownSinceMs: now, resolveLooks: 0 });
      return true;
    });
  }

  /**
   * The venue provably refused a cancel: the order rests again as it did before it (or as
   * PARTIALLY_FILLED if fills arrived meanwhile). Only from PENDING_CANCEL.
   */
  revertCancel(clientOrderId: string, before: OrderState, reason: string): void {
    this.atomically(() => {
      const o = this.mustGet(clientOrderId);
      if (o.state !== 'PENDING_CANCEL') return;
      const back = o.filledBase.gt(0) ? 'PARTIALLY_FILLED' : before;
      if (!canTransition('PENDING_CANCEL', back)) return;
      this.store.orders.setState(clientOrderId, 'PENDING_CANCEL', back, reason, this.clock.now());
    });
  }

  /** Writes fields that are not the state (ids learned, resolution looks). */
  note(clientOrderId: string, patch: OrderPatch): void {
    this.atomically(() => this.store.orders.patch(clientOrderId, patch, this.clock.now()));
  }

  /** PENDING rows no request of this process is in flight for: left by a crash, so ambiguous. */
  orphansToUnknown(): void {
    // The usual pass finds none: then no transaction at all (the live orders answer without a query).
    if (this.store.orders.listByState(['PENDING']).every((o) => this.inFlight.has(o.clientOrderId))) return;
    this.store.tx(() => {
      for (const o of this.store.orders.listByState(['PENDING'])) {
        if (!this.inFlight.has(o.clientOrderId)) this.markUnknown(o.clientOrderId, 'pending without a recorded reply');
      }
    });
  }
}
