/**
 * What `Venue.reachable` needs of an account's open orders on one market: its highest buy and its
 * lowest sell. A step's path reaches some open buy exactly when it reaches the highest (a buy is
 * reached when its price is at least the reach's low), some sell exactly when it reaches the
 * lowest; so a step that most often reaches nothing reads two orders, not all of them.
 *
 * The pair is kept while the account adds no order (`Account.openOrdersAdded`): open orders then
 * only end (an order's price never changes), so the kept pair still bounds every open order's
 * price, and while both its orders are open it is still the highest buy and the lowest sell. Once
 * one of them ended the pair is only a bound: kept bounds that are reached are then worked out
 * again from the open orders before the venue matches the step: a step is never passed that
 * reaches an open order, and one that reaches only an ended order's kept price is passed.
 */
import type { Account } from './account.js';
import type { SimOrder } from './types.js';

export interface OpenBounds {
  /** The open buy with the highest price, the open sell with the lowest (undefined: none). */
  buy: SimOrder | undefined;
  sell: SimOrder | undefined;
  /** True when kept from an earlier reading and an order of the pair has ended since. */
  kept: boolean;
}

interface Entry {
  adds: number;
  /** The pair as read (`kept` false) and as a bound only (`kept` true), both made once. */
  read: OpenBounds;
  bound: OpenBounds;
}

/** Open as `Account.openOrdersOn` counts it (none: nothing that could have ended). */
function stillOpen(o: SimOrder | undefined): boolean {
  return o === undefined || o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

/** The bounds of `orders` (open orders of one market). */
export function boundsOf(orders: readonly SimOrder[]): OpenBounds {
  let buy: SimOrder | undefined;
  let sell: SimOrder | undefined;
  for (const o of orders) {
    if (o.side === 'buy') {
      if (buy === undefined || o.price.gt(buy.price)) buy = o;
    } else if (sell === undefined || o.price.lt(sell.price)) sell = o;
  }
  return { buy, sell, kept: false };
}

/** Per account and market, the bounds of its open orders as last read. */
export class OpenBoundsMemo {
  private readonly byAccount = new Map<Account, Map<string, Entry>>();

  /** The bounds of `account`'s open orders on `market`: kept ones while it added no order, else read now. */
  of(account: Account, market: string): OpenBounds {
    const entry = this.entries(account).get(market);
    if (entry === undefined || entry.adds !== account.openOrdersAdded) return this.fresh(account, market);
    return stillOpen(entry.read.buy) && stillOpen(entry.read.sell) ? entry.read : entry.bound;
  }

  /** The bounds read now from the open orders (and kept). */
  fresh(account: Account, market: string): OpenBounds {
    const read = boundsOf(account.openOrdersOn(market));
    this.entries(account).set(market, { adds: account.openOrdersAdded, read, bound: { buy: read.buy, sell: read.sell, kept: true } });
    return read;
  }

  private entries(account: Account): Map<string, Entry> {
    let m = this.byAccount.get(account);
    if (m === undefined) this.byAccount.set(account, (m = new Map()));
    return m;
  }
}
