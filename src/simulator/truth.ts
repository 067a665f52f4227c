/**
 * Ground truth of one account, for tests and paper mode to compare the bot's store exactly.
 * Every money value is a decimal string.
 */
import { toWire, type Decimal } from '../core/decimal.js';
import type { Account } from './account.js';
import type { Venue } from './venue.js';
import { conditionalWire, dealWire, flexRecordWire, orderWire, seconds } from './wire.js';
import type { SimOrder } from './types.js';

/** An order as the truth lists it: the wire Order plus the simulator's own fields. */
export type TruthOrder = Record<string, unknown> & {
  orderId: number;
  clientOrderId: string;
  status: string;
  /** `spot`, `collateral`; OCO legs carry `ocoId`. */
  kind: string;
  ocoId: number | null;
  /** Funds still held for the order (asset `lockAsset`). */
  locked: string;
  lockAsset: string;
  /** Last modification, fractional seconds. */
  mtime: number;
};

/** Per-market sums of an account's deals. */
export interface DealSums {
  count: number;
  /** Sum of deal amounts (stock). */
  base: string;
  /** Sum of amount * price (money). */
  quote: string;
  /** Sum of fees (money). */
  fees: string;
}

/** `GET /_sim/truth?apiKey=K` and `handle.truth(K)`. */
export interface Truth {
  apiKey: string;
  /** Simulator time, ms. */
  time: number;
  /** Current price per market. */
  prices: Record<string, string>;
  /** Available balance per asset (what main balance answers). */
  balances: Record<string, string>;
  /** Held for open orders, per asset. */
  locked: Record<string, string>;
  openOrders: TruthOrder[];
  /** Every order ever accepted (OCO legs included), oldest first. */
  orders: TruthOrder[];
  positions: {
    market: string;
    positionSide: string;
    /** Signed stock amount: positive long, negative short. */
    amount: string;
    /** Average entry price (cost / |amount|, 18 places), "0" when flat. */
    entryPrice: string;
    /** Entry cost of the open amount (money). */
    entryCost: string;
    margin: string;
    realisedPnl: string;
  }[];
  deals: { count: number; ids: number[]; byMarket: Record<string, DealSums>; list: Record<string, unknown>[] };
  flex: { investments: Record<string, unknown>[]; ledger: Record<string, unknown>[] };
  /** Active OTO/OCO records in the wire shape (as the conditional listing answers). */
  conditional: Record<string, unknown>[];
}

function truthOrder(o: SimOrder): TruthOrder {
  return {
    ...orderWire(o),
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    status: o.status,
    kind: o.kind,
    ocoId: o.ocoId ?? null,
    locked: toWire(o.locked),
    lockAsset: o.lockAsset,
    mtime: seconds(o.mtimeMs),
  };
}

function mapWire(m: Map<string, Decimal>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of [...m.entries()].sort(([a], [b]) => a.localeCompare(b))) out[k] = toWire(v);
  return out;
}

export function truthOf(venue: Venue, account: Account): Truth {
  const byMarket: Record<string, DealSums> = {};
  const sums = new Map<string, { count: number; base: Decimal; quote: Decimal; fees: Decimal }>();
  for (const d of account.deals) {
    const s = sums.get(d.market);
    if (s === undefined) sums.set(d.market, { count: 1, base: d.amount, quote: d.deal, fees: d.fee });
    else {
      s.count++;
      s.base = s.base.plus(d.amount);
      s.quote = s.quote.plus(d.deal);
      s.fees = s.fees.plus(d.fee);
    }
  }
  for (const [m, s] of sums) byMarket[m] = { count: s.count, base: toWire(s.base), quote: toWire(s.quote), fees: toWire(s.fees) };
  const prices: Record<string, string> = {};
  for (const m of venue.markets.values()) prices[m.name] = toWire(m.price);
  return {
    apiKey: account.apiKey,
    time: venue.nowMs(),
    prices,
    balances: mapWire(account.balances),
    locked: mapWire(account.locked),
    openOrders: account.openOrders().map(truthOrder),
    orders: [...account.orders.values()].map(truthOrder),
    positions: [...account.positions.values()].map((p) => ({
      market: p.market,
      positionSide: p.positionSide,
      amount: toWire(p.amount),
      entryPrice: p.amount.isZero() ? '0' : toWire(p.cost.div(p.amount.abs()).toDecimalPlaces(18)),
      entryCost: toWire(p.cost),
      margin: toWire(p.margin),
      realisedPnl: toWire(p.realisedPnl),
    })),
    deals: {
      count: account.deals.length,
      ids: account.deals.map((d) => d.id),
      byMarket,
      list: account.deals.map((d) => ({ ...dealWire(d), market: d.market })),
    },
    flex: {
      investments: account.flex.map((i) => ({
        planId: i.planId,
        investmentId: i.investmentId,
        currency: i.currency,
        amount: toWire(i.amount),
        dailyRate: toWire(i.dailyRate),
        status: i.status,
      })),
      ledger: account.flexLedger.map(flexRecordWire),
    },
    conditional: [...account.conditionals.values()]
      .filter((c) => c.active)
      .map((c) => conditionalWire(c, account, (m) => venue.markets.get(m)))
      .filter((w): w is Record<string, unknown> => w !== undefined),
  };
}
