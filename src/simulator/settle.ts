/**
 * Venue-side interventions for tests (admin only): settling an account (cancel its open orders
 * and protective records, optionally close its positions at the current price) and cancelling
 * the legs of one OCO, as an operator or the venue itself might do behind the bot's back.
 */
import type { Account } from './account.js';
import { cancelRest } from './matching.js';
import type { ConditionalRecord, SimOrder } from './types.js';
import type { PlaceInput, Venue } from './venue.js';

/** What a settle did. */
export interface SettleResult {
  /** Resting orders cancelled (order ids). */
  cancelledOrders: number[];
  /** OTO/OCO records deactivated (record ids); their unexecuted legs are CANCELLED. */
  cancelledConditionals: number[];
  /** Positions closed at the current price by a taker order of the venue's own. */
  flattened: { market: string; amount: string; orderId: number }[];
  /** Positions that could not be closed (e.g. below the market's minimum total). */
  unflattened: { market: string; amount: string; reason: string }[];
}

export interface SettleOptions {
  /** Only this market; default every market. */
  market?: string;
  /** Also close open positions (collateral) at the current price. Default false. */
  flatten?: boolean;
}

function inMarket(account: Account, rec: ConditionalRecord, market: string | undefined): boolean {
  if (market === undefined) return true;
  if (rec.type === 'oco') return rec.market === market;
  return account.orders.get(rec.parentOrderId)?.market === market;
}

/** Deactivates an OTO/OCO record; OCO legs not executed become CANCELLED at `nowMs`. */
export function cancelConditional(account: Account, rec: ConditionalRecord, nowMs: number): void {
  rec.active = false;
  account.changed();
  if (rec.type === 'oco') {
    for (const id of [rec.stopLossOrderId, rec.takeProfitOrderId]) {
      const leg: SimOrder | undefined = id === undefined ? undefined : account.orders.get(id);
      if (leg !== undefined && leg.status === 'NEW') {
        leg.status = 'CANCELLED';
        leg.mtimeMs = nowMs;
      }
    }
  }
  account.ended(rec);
}

/** Cancels the legs of the active OCO `ocoId`; throws RangeError when there is none. */
export function cancelOco(account: Account, ocoId: number, nowMs: number): void {
  const rec = account.conditionals.get(ocoId);
  if (rec === undefined || rec.type !== 'oco' || !rec.active) throw new RangeError(`no active OCO ${ocoId}`);
  cancelConditional(account, rec, nowMs);
}

function closeInput(market: string, amount: SimOrder['amount'], price: SimOrder['price'], n: number): PlaceInput {
  return {
    market,
    side: amount.isPos() ? 'sell' : 'buy',
    amount: amount.abs(),
    price,
    postOnly: false,
    ioc: true,
    rpi: false,
    // A clientOrderId of the venue's own, so the bot records the deal as external, never as a leg.
    clientOrderId: `sim-settle-${n}`,
    kind: 'collateral',
  };
}

function flattenPositions(venue: Venue, account: Account, market: string | undefined, out: SettleResult): void {
  for (const p of account.positions.values()) {
    if (p.amount.isZero() || (market !== undefined && p.market !== market)) continue;
    const amount = p.amount.toFixed();
    try {
      const price = venue.requireMarket(p.market).price;
      const order = venue.place(account, closeInput(p.market, p.amount, price, venue.nextId()));
      out.flattened.push({ market: p.market, amount, orderId: order.orderId });
    } catch (err) {
      out.unflattened.push({ market: p.market, amount, reason: err instanceof Error ? err.message : String(err) });
    }
  }
}

/**
 * Cancels every open order first (a partly filled parent then turns its OTO into an OCO), then
 * every active OTO/OCO record, then, with `flatten`, closes the positions.
 */
export function settleAccount(venue: Venue, account: Account, opts: SettleOptions = {}): SettleResult {
  const out: SettleResult = { cancelledOrders: [], cancelledConditionals: [], flattened: [], unflattened: [] };
  const now = venue.nowMs();
  for (const o of account.openOrders()) {
    if (opts.market !== undefined && o.market !== opts.market) continue;
    cancelRest(venue, account, o, now);
    out.cancelledOrders.push(o.orderId);
  }
  for (const rec of account.conditionals.values()) {
    if (!rec.active || !inMarket(account, rec, opts.market)) continue;
    cancelConditional(account, rec, now);
    out.cancelledConditionals.push(rec.id);
  }
  if (opts.flatten === true) flattenPositions(venue, account, opts.market, out);
  return out;
}
