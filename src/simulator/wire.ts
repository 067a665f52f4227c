/**
 * Wire formatting, written from api-v4.md: decimals as plain strings (never exponent notation),
 * order timestamps as fractional Unix seconds (JSON number), ids as safe integers.
 */
import { toWire } from '../core/decimal.js';
import type { Account } from './account.js';
import type { Market } from './market.js';
import type { ConditionalRecord, Deal, FlexRecord, SimOrder } from './types.js';

/** ms → fractional Unix seconds. */
export function seconds(ms: number): number {
  return ms / 1000;
}

/** The fields an Order (2.1) and an order-like object (2.5) share. */
function orderCore(o: SimOrder): Record<string, unknown> {
  return {
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    type: o.type,
    timestamp: seconds(o.createdMs),
    dealMoney: toWire(o.dealMoney),
    dealStock: toWire(o.dealStock),
    amount: toWire(o.amount),
    left: toWire(o.left),
    dealFee: toWire(o.dealFee),
    price: toWire(o.price),
    status: o.status,
    stp: 'no',
  };
}

/** Order (api-v4 2.1). */
export function orderWire(o: SimOrder): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...orderCore(o),
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
  };
  if (o.positionSide !== undefined) out['positionSide'] = o.positionSide;
  if (o.oto !== undefined) {
    out['oto'] = {
      otoId: o.oto.otoId,
      ...(o.oto.stopLoss === undefined ? {} : { stopLoss: toWire(o.oto.stopLoss) }),
      ...(o.oto.takeProfit === undefined ? {} : { takeProfit: toWire(o.oto.takeProfit) }),
    };
  }
  return out;
}

/** Order-like object inside conditional records (api-v4 2.5). */
export function orderLikeWire(o: SimOrder, m: Market | undefined, oco: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...orderCore(o),
    positionSide: o.positionSide ?? 'BOTH',
    takerFee: m === undefined ? '0' : toWire(m.takerFee),
    makerFee: m === undefined ? '0' : toWire(m.makerFee),
  };
  if (oco) {
    out['post_only'] = o.postOnly;
    out['mtime'] = seconds(o.mtimeMs);
  }
  if (o.type === 'stop limit') {
    out['activation_price'] = toWire(o.activationPrice ?? o.price);
    out['activation_condition'] = o.activationCondition ?? 'lte';
    out['activated'] = o.activated ?? 0;
  }
  return out;
}

/**
 * Conditional record (api-v4 2.4) in the spec's snake_case. A one-sided bracket (stop-loss or
 * take-profit only) keeps the spec's keys: its OTO sends "" for the missing price (the spec types
 * both as strings, and "" is its "none" for a string, as `clientOrderId` shows), and its OCO sends
 * null for the missing leg (both keys present, as a bulk item's `result`/`error`).
 */
export function conditionalWire(rec: ConditionalRecord, account: Account, marketOf: (name: string) => Market | undefined): Record<string, unknown> | undefined {
  if (rec.type === 'oto') {
    const parent = account.orders.get(rec.parentOrderId);
    if (parent === undefined) return undefined;
    return {
      id: rec.id,
      type: 'oto',
      stopLossPrice: rec.stopLoss === undefined ? '' : toWire(rec.stopLoss),
      takeProfitPrice: rec.takeProfit === undefined ? '' : toWire(rec.takeProfit),
      conditionalOrder: orderLikeWire(parent, marketOf(parent.market), false),
    };
  }
  const stop = rec.stopLossOrderId === undefined ? undefined : account.orders.get(rec.stopLossOrderId);
  const tp = rec.takeProfitOrderId === undefined ? undefined : account.orders.get(rec.takeProfitOrderId);
  const m = marketOf(rec.market);
  return {
    id: rec.id,
    type: 'oco',
    stop_loss: stop === undefined ? null : orderLikeWire(stop, m, true),
    take_profit: tp === undefined ? null : orderLikeWire(tp, m, true),
  };
}

/** Executed deal (api-v4 2.6). */
export function dealWire(d: Deal): Record<string, unknown> {
  return {
    id: d.id,
    clientOrderId: d.clientOrderId,
    time: seconds(d.timeMs),
    side: d.side,
    role: d.role,
    amount: toWire(d.amount),
    price: toWire(d.price),
    deal: toWire(d.deal),
    fee: toWire(d.fee),
    orderId: d.orderId,
    feeAsset: d.feeAsset,
  };
}

/** Flex history record (api-v4 2.7); createdAt in integer seconds. */
export function flexRecordWire(r: FlexRecord): Record<string, unknown> {
  return {
    createdAt: Math.floor(r.createdMs / 1000),
    planId: r.planId,
    investmentId: r.investmentId,
    currency: r.currency,
    amount: toWire(r.amount),
    transactionId: r.transactionId,
    actionType: r.actionType,
  };
}
