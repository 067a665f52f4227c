/**
 * The venue's state and its clock discipline. Time is lazy: before every request or admin call
 * the venue catches up to the clock (one price step per `stepMs` of simulated time), so the
 * market is deterministic and a ManualClock needs no timers.
 *
 * Catch-up: up to `maxWalkSteps` due steps are walked one by one. A longer gap (the venue sat
 * idle) is covered by one jump (market.ts, jump.ts): the price moves to a drawn end, resting
 * orders and OCO legs are matched once against the lowest and highest price of the skipped path,
 * and fills carry the time of the last due step. So no request pays for idle time: its work is
 * bounded by `maxWalkSteps` steps plus one jump, whatever the gap. Determinism holds: the same
 * seed and the same clock readings at the same requests give the same prices and fills (a jump
 * draws from its own seeded stream per price path, so spot and perpetual still move together).
 * What a jump gives up is the step-by-step detail inside the gap: partial fills of several steps
 * become one fill, and an order the path touched only briefly may fill more than the walk would.
 */
import { Decimal, dec } from '../core/decimal.js';
import type { Clock } from '../core/clock.js';
import { Account } from './account.js';
import { createOto, ocoNearReached, ocoReached, onParentTerminal, runOcos } from './conditional.js';
import { business, validation } from './errors.js';
import { DAY_MS, earnDaily, openInvestment } from './flex.js';
import { Market } from './market.js';
import { cancelRest, fillResting, nearReached, reached, takeAtPlacement, type MatchContext } from './matching.js';
import type { NearSpan } from './near.js';
import { OpenBoundsMemo, type OpenBounds } from './open-bounds.js';
import type { AccountOptions, MarketOptions } from './options.js';
import { checkAgainstState, checkPlacement, lockFor, positionSideFor } from './order-rules.js';
import { Prng } from './prng.js';
import type { Side } from '../core/orders.js';
import type { OcoRecord, PositionSide, PriceSpan, SimOrder } from './types.js';

/** A limit order request after shape validation (strings already parsed). */
export interface PlaceInput {
  market: string;
  side: Side;
  amount: Decimal;
  price: Decimal;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  clientOrderId: string;
  kind: 'spot' | 'collateral';
  positionSide?: PositionSide;
  stopLoss?: Decimal;
  takeProfit?: Decimal;
}

/** The venue's clock and id state (markets and accounts apart): what a persisted paper venue continues from. */
export interface VenueClockState {
  startMs: number;
  offsetMs: number;
  nextStepMs: number;
  seq: number;
  /** Position of the transaction/plan id stream (Prng.snapshot). */
  ids: number;
}

/** Default of `maxWalkSteps`: a gap of more than this many steps is jumped. */
export const DEFAULT_MAX_WALK_STEPS = 60;

/**
 * A step's reach (`Market.reachOf`), told from its ends in doubles where they prove the answer
 * (near.ts), else from its exact ends; each worked out when first needed.
 */
class StepReach {
  private exact: PriceSpan | undefined;
  /** null: not asked yet; undefined: the market offers none. */
  private near: NearSpan | undefined | null = null;

  constructor(
    protected readonly m: Market,
    protected readonly span: PriceSpan,
  ) {}

  order(o: SimOrder): boolean {
    const near = this.nearSpan();
    return (near === undefined ? undefined : nearReached(o, near)) ?? reached(o, this.exactSpan());
  }

  /** True when the highest open buy or the lowest open sell is reached: then some open order is (open-bounds.ts). */
  bounds(b: OpenBounds): boolean {
    return (b.buy !== undefined && this.order(b.buy)) || (b.sell !== undefined && this.order(b.sell));
  }

  oco(a: Account, rec: OcoRecord): boolean {
    const near = this.nearSpan();
    return (near === undefined ? undefined : ocoNearReached(a, rec, near)) ?? ocoReached(a, rec, this.exactSpan());
  }

  protected nearEnds(): NearSpan | undefined {
    return this.m.nearReachOf(this.span);
  }

  protected exactEnds(): PriceSpan {
    return this.m.reachOf(this.span);
  }

  private nearSpan(): NearSpan | undefined {
    if (this.near === null) this.near = this.nearEnds();
    return this.near;
  }

  private exactSpan(): PriceSpan {
    this.exact ??= this.exactEnds();
    return this.exact;
  }
}

/** One leg of a step's path: its reach is its own span (`Market.nearLegOf` in doubles). */
class LegReach extends StepReach {
  protected override nearEnds(): NearSpan | undefined {
    return this.m.nearLegOf(this.span);
  }

  protected override exactEnds(): PriceSpan {
    return this.span;
  }
}

export class Venue implements MatchContext {
  readonly markets = new Map<string, Market>();
  readonly accounts = new Map<string, Account>();
  readonly startMs: number;
  private offsetMs = 0;
  private nextStepMs: number;
  /**
   * Order and deal ids. A venue never reuses an id, and a paper venue restarted on the same data
   * dir must not either (the bot de-duplicates fills by deal id), so ids start from the start
   * time: ms × 1000 leaves room for 1000 ids per ms of the previous run and stays a safe integer.
   */
  private seq: number;
  private readonly ids: Prng;
  /** The open orders' highest buy and lowest sell per account and market, for `reachable`. */
  private readonly openBounds = new OpenBoundsMemo();

  constructor(
    private readonly clock: Clock,
    readonly seed: number,
    markets: MarketOptions[],
    readonly stepMs: number,
    readonly maxWalkSteps = DEFAULT_MAX_WALK_STEPS,
  ) {
    if (!(stepMs > 0)) throw new RangeError('stepMs must be > 0');
    if (!Number.isInteger(maxWalkSteps) || maxWalkSteps < 1) throw new RangeError('maxWalkSteps must be an integer >= 1');
    for (const m of markets) this.markets.set(m.name, new Market(m, seed));
    this.startMs = clock.now();
    // Transaction and plan ids must not repeat across a paper restart with the same seed (the
    // bot de-duplicates its flex ledger by transaction id): the stream depends on the start time too.
    this.ids = Prng.derive(seed, `ids:${this.startMs}`);
    this.seq = Math.floor(this.startMs) * 1000;
    this.nextStepMs = this.startMs + stepMs;
  }

  /** Clock and id state, for persistence (src/simulator/persist/). */
  saveClock(): VenueClockState {
    return { startMs: this.startMs, offsetMs: this.offsetMs, nextStepMs: this.nextStepMs, seq: this.seq, ids: this.ids.snapshot() };
  }

  /** Continues from a `saveClock()`: same start, simulated time offset, next step and id sequences. */
  restoreClock(s: VenueClockState): void {
    (this as { startMs: number }).startMs = s.startMs;
    this.offsetMs = s.offsetMs;
    this.nextStepMs = s.nextStepMs;
    this.seq = s.seq;
    this.ids.restore(s.ids);
  }

  nextId(): number {
    return ++this.seq;
  }

  /** Simulator time, ms: the clock plus any admin advance. */
  nowMs(): number {
    return this.clock.now() + this.offsetMs;
  }

  /** Fresh UUID-shaped id from the seeded stream. */
  uuid(): string {
    return this.ids.uuid();
  }

  addAccount(opts: AccountOptions): Account {
    if (this.accounts.has(opts.apiKey)) throw new RangeError('account with this apiKey exists');
    const account = new Account(opts);
    for (const f of opts.flex ?? []) openInvestment(account, f, this.ids, this.nowMs());
    this.accounts.set(opts.apiKey, account);
    return account;
  }

  /** Brings the market up to now: walks the due steps, or jumps them after idle time. */
  catchUp(): void {
    const now = this.nowMs();
    if (this.nextStepMs > now) return;
    const due = Math.floor((now - this.nextStepMs) / this.stepMs) + 1;
    if (due > this.maxWalkSteps) {
      this.runSteps(due);
      return;
    }
    for (let i = 0; i < due; i++) this.runSteps(1);
  }

  /** Advances simulated time by `ms` (admin) and catches up. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('advance: ms must be >= 0');
    this.offsetMs += ms;
    this.catchUp();
  }

  /** Runs `n` steps now by advancing simulated time `n * stepMs` (caught up like any gap). */
  step(n: number): void {
    this.advance(Math.max(0, Math.floor(n)) * this.stepMs);
  }

  /** Sets a market price (admin) and lets resting orders and OCO legs react at once. */
  setPrice(market: string, price: string): void {
    this.catchUp();
    const m = this.requireMarket(market);
    m.setPrice(dec(price));
    this.matchMarket(m, { low: m.price, high: m.price, jumped: false }, this.nowMs());
  }

  requireMarket(name: string): Market {
    const m = this.markets.get(name);
    if (m === undefined) throw new RangeError(`unknown market ${name}`);
    return m;
  }

  /** One step (`steps` = 1) or one jump over `steps` steps, ending at the last of them. */
  private runSteps(steps: number): void {
    const timeMs = this.nextStepMs + (steps - 1) * this.stepMs;
    for (const m of this.markets.values()) {
      if (steps === 1) this.walkStep(m, timeMs);
      else {
        this.matchMarket(m, m.jump(steps), timeMs);
        m.endJump();
      }
    }
    this.passMidnights(this.nextStepMs - this.stepMs, timeMs);
    this.nextStepMs = timeMs + this.stepMs;
  }

  /** One step of `m`: its path in order (a candle's open, extremes and close), what is reached first fills first. */
  private walkStep(m: Market, timeMs: number): void {
    const span = m.advance();
    const passes = m.canPass();
    // A path that reaches no resting order and no OCO leg matches nothing on any of its legs.
    if (passes && !this.reachable(m, new StepReach(m, span))) {
      m.passPath(span);
      return;
    }
    for (const leg of m.pathOf(span)) {
      m.enterLeg(leg);
      // Nor does one leg that reaches none, as the orders stand at that leg (an earlier leg's fill
      // may have ended some and opened OCO legs). A path of one leg is the step's span, just found reached.
      if (passes && leg !== span && !this.reachable(m, new LegReach(m, leg))) continue;
      this.matchMarket(m, leg, timeMs, m.nearLegOf(leg));
    }
  }

  /** True when a resting order or an active OCO leg of `m` (any account) is reached within `reach`. */
  private reachable(m: Market, reach: StepReach): boolean {
    for (const a of this.accounts.values()) {
      // Kept bounds reached may be an ended order's: read again from the open orders (open-bounds.ts).
      const kept = this.openBounds.of(a, m.name);
      if (reach.bounds(kept) && (!kept.kept || reach.bounds(this.openBounds.fresh(a, m.name)))) return true;
      for (const rec of a.conditionals.activeOcos(m.name)) if (reach.oco(a, rec)) return true;
    }
    return false;
  }

  /** Daily flex earnings and fresh 24 h statistics for each UTC midnight in (fromMs, toMs]. */
  private passMidnights(fromMs: number, toMs: number): void {
    for (let d = Math.floor(fromMs / DAY_MS) + 1; d <= Math.floor(toMs / DAY_MS); d++) {
      for (const a of this.accounts.values()) earnDaily(a, this.ids, d * DAY_MS);
      for (const m of this.markets.values()) m.resetDay();
    }
  }

  private matchMarket(m: Market, span: PriceSpan, timeMs: number, near?: NearSpan): void {
    fillResting(this, this.accounts.values(), m, span, timeMs, near);
    runOcos(this, this.accounts.values(), m, span, timeMs);
  }

  onTerminal(account: Account, order: SimOrder): void {
    onParentTerminal(this, account, order);
    account.settled(order);
  }

  /** Places a limit order (spot or collateral). Throws SimHttpError when refused. */
  place(account: Account, input: PlaceInput): SimOrder {
    const m = this.markets.get(input.market);
    if (m === undefined || !m.available) throw validation({ market: ['Market is not available'] }, 31);
    checkPlacement(m, input);
    const positionSide = positionSideFor(account.hedgeMode, m, input);
    checkAgainstState(account, m, input);
    const { lockAsset, lockPerUnit } = lockFor(m, input);
    const lock = input.amount.mul(lockPerUnit);
    if (account.balance(lockAsset).lt(lock)) throw business(10, { amount: ['Not enough balance.'] });
    const order = this.newOrder(m, input, { lockAsset, locked: lock, lockPerUnit }, positionSide);
    account.hold(lockAsset, lock);
    account.addOrder(order);
    if (input.stopLoss !== undefined || input.takeProfit !== undefined) createOto(this, account, order, input.stopLoss, input.takeProfit);
    takeAtPlacement(this, account, m, order);
    if (order.ioc && order.left.gt(0)) cancelRest(this, account, order, order.createdMs);
    return order;
  }

  private newOrder(
    m: Market,
    input: PlaceInput,
    lock: Pick<SimOrder, 'lockAsset' | 'locked' | 'lockPerUnit'>,
    positionSide: PositionSide | undefined,
  ): SimOrder {
    const now = this.nowMs();
    // Fields named one by one (a spread of `lock` takes V8's slow path), in the order a spread gave them.
    const order: SimOrder = {
      orderId: this.nextId(),
      clientOrderId: input.clientOrderId,
      market: m.name,
      side: input.side,
      type: 'limit',
      kind: input.kind,
      createdMs: now,
      mtimeMs: now,
      amount: input.amount,
      price: input.price,
      left: input.amount,
      dealStock: new Decimal(0),
      dealMoney: new Decimal(0),
      dealFee: new Decimal(0),
      // An rpi order is post-only by design (api-v4 2.1 rule 1), so its reply says so.
      postOnly: input.postOnly || input.rpi,
      ioc: input.ioc,
      rpi: input.rpi,
      status: 'NEW',
      lockAsset: lock.lockAsset,
      locked: lock.locked,
      lockPerUnit: lock.lockPerUnit,
    };
    if (positionSide !== undefined) order.positionSide = positionSide;
    return order;
  }

  /** Cancels an open order by id or clientOrderId on `market`; throws code 2 when none is open. */
  cancel(account: Account, market: string, orderId: number | undefined, clientOrderId: string | undefined): SimOrder {
    if (!this.markets.has(market)) throw validation({ market: ['Market is not available'] }, 31);
    const order = account
      .openOrdersOn(market)
      .find((o) => (orderId !== undefined ? o.orderId === orderId : o.clientOrderId === clientOrderId));
    if (order === undefined) throw business(2, { orderId: ['Unexecuted order was not found.'] });
    cancelRest(this, account, order, this.nowMs());
    return order;
  }
}
