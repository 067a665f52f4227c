/**
 * What this account's open orders hold at the venue, from the journal (docs/equity.md, "Held by
 * open orders"). The main balance endpoint answers the *available* amount only: whatever an open
 * order reserved is missing from it until the order fills or is cancelled, so anything that values
 * the account (the equity rule, the balance audit) adds these holds back.
 *
 * The reservation rule is the simulator's (src/simulator/order-rules.ts `lockFor`), per unit of
 * the remaining amount (amount − filled):
 * - spot buy: price × (1 + fee reserve rate) in quote;
 * - spot sell: 1 in base;
 * - collateral (either side): margin price / leverage (rounded up to 18 places, as the simulator
 *   does) plus price × fee reserve rate, in quote.
 * The fee reserve rate is the larger of the market's maker and taker rates on the simulator.
 *
 * Pure: no store, no clock. Decimal throughout.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import type { OrderState } from '../core/orders.js';
import type { OrderRecord } from '../model/journal.js';

/**
 * Journal states whose orders the venue has acknowledged and may still hold funds for. PENDING (no
 * reply yet) and UNKNOWN (ambiguous placement) are left out: the journal cannot tell whether the
 * venue reserved anything for them; the equity check waits for in-flight placements to settle.
 */
export const HOLDING_STATES: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL'];

/** How a venue reserves funds for one market's open orders. */
export interface MarketHoldRule {
  /** Asset a spot sell holds. */
  base: string;
  /** Asset a spot buy or a collateral order holds (the market's quote; a perpetual's settlement asset). */
  quote: string;
  /** Fraction of the notional reserved for fees on top of a buy's cost or a collateral margin (0.001 = 0.1 %). */
  feeReserveRate: Decimal;
  /** Leverage of collateral orders: margin = notional / leverage. */
  leverage: Decimal;
}

/** The hold rule of a market; undefined for a market the venue does not describe. */
export type HoldRules = (market: string) => MarketHoldRule | undefined;

/** The fields of a journal order the hold needs (`OrderRecord` satisfies it). */
export type HoldingOrder = Pick<OrderRecord, 'clientOrderId' | 'kind' | 'market' | 'side' | 'price' | 'amount' | 'filledBase' | 'reportedFilledBase' | 'state'>;

/** One order's hold. */
export interface OrderHold {
  clientOrderId: string;
  market: string;
  asset: string;
  amount: Decimal;
}

export interface OrderHolds {
  /** Total held per asset. */
  byAsset: Record<string, Decimal>;
  /** Each holding order's hold, in journal order. */
  orders: OrderHold[];
  /** Holding orders of markets without a hold rule (their hold is unknown and not counted). */
  unruled: string[];
}

/** What may still fill: amount − filled, where filled is the larger of the applied deals and a reply's report. */
export function remainingAmount(o: Pick<HoldingOrder, 'amount' | 'filledBase' | 'reportedFilledBase'>): Decimal {
  return Decimal.max(o.amount.minus(Decimal.max(o.filledBase, o.reportedFilledBase)), ZERO);
}

/** Margin per unit at `price`, rounded up to 18 places (the simulator's `marginPerUnit`). */
export function marginPerUnit(price: Decimal, leverage: Decimal): Decimal {
  return price.div(leverage).toDecimalPlaces(18, Decimal.ROUND_UP);
}

/** The asset and amount one order holds, or null when it holds nothing (filled, or not a holding state). */
export function holdOf(o: HoldingOrder, rule: MarketHoldRule): { asset: string; amount: Decimal } | null {
  if (!HOLDING_STATES.includes(o.state)) return null;
  const remaining = remainingAmount(o);
  if (remaining.lte(0)) return null;
  if (o.kind === 'collateral') {
    const perUnit = marginPerUnit(o.price, rule.leverage).plus(o.price.mul(rule.feeReserveRate));
    return { asset: rule.quote, amount: remaining.mul(perUnit) };
  }
  if (o.side === 'buy') return { asset: rule.quote, amount: remaining.mul(o.price.mul(rule.feeReserveRate.plus(1))) };
  return { asset: rule.base, amount: remaining };
}

/**
 * What the given journal orders hold at the venue, per asset (orders not in a holding state hold
 * nothing). `hold`: how one order's hold is found, `holdOf` unless the caller keeps them.
 */
export function heldByOpenOrders(orders: readonly HoldingOrder[], rules: HoldRules, hold: typeof holdOf = holdOf): OrderHolds {
  return new HoldsAlong(rules, hold).of(orders);
}

/** What one order added to the holds: its hold and its asset's running total after it, or its market when unruled. */
interface HoldStep {
  hold?: OrderHold;
  total?: Decimal;
  unruled?: string;
}

const HOLDS_NOTHING: HoldStep = Object.freeze({});

/** How far past the next unmatched place of the last list a record is looked for (the orders a write dropped). */
const LOOK_AHEAD = 2;

/**
 * `heldByOpenOrders` over successive lists of orders, each list summed in its order. The equity
 * check's list is the journal's holding orders in journal order (created, then id): a placement
 * appends to it, a fill or cancel drops one order, so most of a new list starts with the very
 * records of the last one (a record is frozen; a written order is a new record). Over that common
 * head every running total is the same decimal the same additions gave last time, so it is taken
 * as it was and only the rest is added: the same sums, digit for digit, as one pass over the list.
 * Past the head, a record the last list held a place or two further on keeps its hold (a pure
 * function of the record under fixed rules) and only its running total is added again.
 */
export class HoldsAlong {
  private records: readonly HoldingOrder[] = [];
  private steps: readonly HoldStep[] = [];

  constructor(
    private readonly rules: HoldRules,
    private readonly hold: typeof holdOf = holdOf,
  ) {}

  of(orders: readonly HoldingOrder[]): OrderHolds {
    const byAsset: Record<string, Decimal> = {};
    const held: OrderHold[] = [];
    const unruled = new Set<string>();
    const steps: HoldStep[] = [];
    let head = true;
    let next = 0;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i] as HoldingOrder;
      const at = this.placeOf(next, o);
      if (at >= 0) next = at + 1;
      head &&= at === i;
      const s = head ? (this.steps[i] as HoldStep) : this.step(o, byAsset, at < 0 ? undefined : this.steps[at]);
      steps.push(s);
      if (s.unruled !== undefined) unruled.add(s.unruled);
      else if (s.hold !== undefined) {
        byAsset[s.hold.asset] = s.total as Decimal;
        held.push(s.hold);
      }
    }
    // A copy: the caller's list may change after this call, the steps must not.
    this.records = orders.slice();
    this.steps = steps;
    return { byAsset, orders: held, unruled: [...unruled].sort() };
  }

  /** Where `o` stands in the last list from `from` on, `LOOK_AHEAD` places further at most; -1 when not there. */
  private placeOf(from: number, o: HoldingOrder): number {
    const end = Math.min(this.records.length, from + 1 + LOOK_AHEAD);
    for (let i = from; i < end; i++) if (this.records[i] === o) return i;
    return -1;
  }

  /** One order's step after the running totals `byAsset`; `was`: the same record's step in the last list. */
  private step(o: HoldingOrder, byAsset: Readonly<Record<string, Decimal>>, was: HoldStep | undefined): HoldStep {
    if (was !== undefined) return was.hold === undefined ? was : { hold: was.hold, total: (byAsset[was.hold.asset] ?? ZERO).plus(was.hold.amount) };
    if (!HOLDING_STATES.includes(o.state)) return HOLDS_NOTHING;
    const rule = this.rules(o.market);
    if (rule === undefined) return { unruled: o.market };
    const h = this.hold(o, rule);
    if (h === null) return HOLDS_NOTHING;
    // Fields named, not spread: a spread after other fields takes V8's slow path.
    const hold: OrderHold = { clientOrderId: o.clientOrderId, market: o.market, asset: h.asset, amount: h.amount };
    return { hold, total: (byAsset[h.asset] ?? ZERO).plus(h.amount) };
  }
}

/**
 * Hold rules from market names alone: `BASE_QUOTE` holds BASE and QUOTE; a perpetual (`BASE_PERP`)
 * settles in `settleAsset`. Every market gets the same fee reserve rate and leverage.
 */
export function holdRulesByName(settleAsset: string, feeReserveRate: Decimal, leverage: Decimal): HoldRules {
  return (market) => {
    const [base, quote] = market.split('_');
    if (base === undefined || quote === undefined || base === '' || quote === '') return undefined;
    return { base, quote: quote === 'PERP' ? settleAsset : quote, feeReserveRate, leverage };
  };
}
