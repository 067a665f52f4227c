/**
 * The ExchangeGateway contract: what the engine relies on, stated once and run against every
 * implementation (the real adapter over the simulator, and the fake the engine tests use), so
 * the fake cannot drift from the venue. A rig prepares each implementation's venue; the
 * assertions use the port only.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.js';
import { InvalidOrderError } from '../../src/core/errors.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import type { Fill } from '../../src/model/fills.js';
import type { LimitOrderRequest } from '../../src/model/venue-orders.js';
import type { Side } from '../../src/core/orders.js';

export const DAY_MS = 86_400_000;

/** A venue prepared for the contract: a funded account, one active flex investment, no loan. */
export interface GatewayRig {
  /** Deals per history request and records per flex history request: 2, to force paging. */
  gateway: ExchangeGateway;
  /** Venue time, ms. */
  nowMs(): number;
  /** Moves venue time on (within one day: no flex earning happens). */
  advance(ms: number): void;
  /** Moves venue time on by whole days: the investment earns once per UTC midnight. */
  passDays(n: number): void;
  /** The current price of a market. */
  price(market: string): Decimal;
  /** Plan id (UUID) of the account's flex investment (USDT). */
  flexPlan: string;
  close(): Promise<void>;
}

export type RigFactory = () => Promise<GatewayRig>;

let seq = 0;
const cid = (tag: string): string => `ct-${tag}-${(++seq).toString(36)}`;

/** A BTC_USDT limit order priced to rest (half the price) or to take at once (1.5 × price). */
function order(rig: GatewayRig, side: Side, how: 'rest' | 'cross', amount = '0.001'): LimitOrderRequest {
  const p = rig.price('BTC_USDT');
  const far = side === 'buy' ? (how === 'rest' ? '0.5' : '1.5') : how === 'rest' ? '1.5' : '0.5';
  return { market: 'BTC_USDT', side, amount: new Decimal(amount), price: p.mul(far).toDecimalPlaces(2), clientOrderId: cid(how) };
}

async function submitAll(g: ExchangeGateway, orders: LimitOrderRequest[]) {
  const batches = [];
  for await (const b of g.submitLimitOrders(orders)) batches.push(b);
  return batches;
}

async function all<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const p of pages) out.push(p);
  return out;
}

export function gatewayContract(name: string, makeRig: RigFactory): void {
  describe(`ExchangeGateway contract: ${name}`, () => {
    const withRig = (fn: (rig: GatewayRig) => Promise<void>) => async () => {
      const rig = await makeRig();
      try {
        await fn(rig);
      } finally {
        await rig.close();
      }
    };

    it('limit orders: each item its own outcome, in request order (placed; rejected for want of funds)', withRig(async (rig) => {
      const ok = order(rig, 'buy', 'rest');
      const broke = order(rig, 'buy', 'rest', '100');
      const [batch, ...more] = await submitAll(rig.gateway, [ok, broke]);
      expect(more).toEqual([]);
      expect(batch?.map((r) => [r.clientOrderId, r.status])).toEqual([[ok.clientOrderId, 'placed'], [broke.clientOrderId, 'rejected']]);
      const placed = batch?.[0];
      const expected = { clientOrderId: ok.clientOrderId, status: 'OPEN', market: 'BTC_USDT' };
      expect(placed?.status === 'placed' && placed.order).toMatchObject(expected);
      const refused = batch?.[1];
      expect(refused?.status === 'rejected' && refused.error).toBeInstanceOf(InvalidOrderError);
    }));

    it('limit orders: more than 20 go out as several requests, outcomes in order', withRig(async (rig) => {
      const orders = Array.from({ length: 21 }, () => order(rig, 'buy', 'rest'));
      const batches = await submitAll(rig.gateway, orders);
      expect(batches.map((b) => b.length)).toEqual([20, 1]);
      expect(batches.flat().map((r) => r.clientOrderId)).toEqual(orders.map((o) => o.clientOrderId));
      expect(batches.flat().every((r) => r.status === 'placed')).toBe(true);
    }));

    const otoCase = 'collateral order with stop-loss and take-profit: placed with its OTO, listed while it rests, gone once cancelled';
    it(otoCase, withRig(async (rig) => {
      const p = rig.price('BTC_PERP');
      const entry = p.mul('0.5').toDecimalPlaces(1);
      const req = { market: 'BTC_PERP', side: 'buy' as const, amount: new Decimal('0.01'), price: entry, clientOrderId: cid('oto') };
      const protection = { stopLoss: entry.mul('0.9').toDecimalPlaces(1), takeProfit: entry.mul('1.1').toDecimalPlaces(1) };
      const v = await rig.gateway.submitCollateralOrder({ ...req, ...protection });
      expect(v).toMatchObject({ clientOrderId: req.clientOrderId, status: 'OPEN' });
      expect(v.oto?.otoId).toBeTypeOf('number');
      const listed = await rig.gateway.protectiveOrders(['BTC_PERP']);
      const oto = listed.find((r) => r.kind === 'oto' && r.parent.clientOrderId === req.clientOrderId);
      expect(oto).toMatchObject({ kind: 'oto', id: v.oto?.otoId, parent: { orderId: v.orderId, market: 'BTC_PERP', side: 'buy' } });
      expect(await rig.gateway.protectiveOrders(['ETH_PERP'])).toEqual([]);
      await rig.gateway.cancelOrder({ market: 'BTC_PERP', clientOrderId: req.clientOrderId });
      const after = await rig.gateway.protectiveOrders(['BTC_PERP']);
      expect(after.some((r) => r.kind === 'oto' && r.id === v.oto?.otoId)).toBe(false);
    }));

    it('cancel: a resting order is cancelled; a second cancel, or an unknown order, is "not found"', withRig(async (rig) => {
      const o = order(rig, 'buy', 'rest');
      const [batch] = await submitAll(rig.gateway, [o]);
      const placed = batch?.[0];
      if (placed?.status !== 'placed') throw new Error('not placed');
      const v = await rig.gateway.cancelOrder({ market: 'BTC_USDT', orderId: placed.order.orderId });
      expect(v).toMatchObject({ orderId: placed.order.orderId, status: 'CANCELLED' });
      for (const again of [{ market: 'BTC_USDT', clientOrderId: o.clientOrderId }, { market: 'BTC_USDT', clientOrderId: cid('never') }]) {
        const err = await rig.gateway.cancelOrder(again).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidOrderError);
        expect((err as InvalidOrderError).kind).toBe('order_not_found');
      }
    }));

    it('fills: a range is paged newest first (more than one page), each fill in it once, none outside its seconds', withRig(async (rig) => {
      const made: { cid: string; atMs: number }[] = [];
      for (let i = 0; i < 5; i++) {
        const o = order(rig, i % 2 === 0 ? 'buy' : 'sell', 'cross');
        made.push({ cid: o.clientOrderId, atMs: rig.nowMs() });
        const [batch] = await submitAll(rig.gateway, [o]);
        expect(batch?.[0]?.status).toBe('placed');
        rig.advance(1_000);
      }
      const fromMs = made[1]!.atMs;
      const toMs = made[3]!.atMs + 1;
      const pages = await all(mapPages(rig.gateway.fills({ fromMs, toMs })));
      expect(pages.length).toBeGreaterThan(1);
      const fills = pages.flat();
      expect(new Set(fills.map((f) => f.dealId)).size).toBe(fills.length);
      expect([...new Set(fills.map((f) => f.clientOrderId))].sort()).toEqual(made.slice(1, 4).map((m) => m.cid).sort());
      const times = fills.map((f) => f.timeMs);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const t of times) {
        expect(t).toBeGreaterThanOrEqual(Math.floor(fromMs / 1000) * 1000);
        expect(t).toBeLessThan((Math.floor(toMs / 1000) + 1) * 1000);
      }
    }));

    it('fills of one order: its deals by clientOrderId; none for an order without fills', withRig(async (rig) => {
      const taken = order(rig, 'buy', 'cross');
      const resting = order(rig, 'buy', 'rest');
      await submitAll(rig.gateway, [taken, resting]);
      const mine = await rig.gateway.fillsOfOrder({ market: 'BTC_USDT', clientOrderId: taken.clientOrderId });
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((f: Fill) => f.clientOrderId === taken.clientOrderId && f.side === 'buy')).toBe(true);
      expect(mine.reduce((s, f) => s.plus(f.amount), new Decimal(0)).toFixed()).toBe('0.001');
      expect(await rig.gateway.fillsOfOrder({ market: 'BTC_USDT', clientOrderId: resting.clientOrderId })).toEqual([]);
      expect(await rig.gateway.fillsOfOrder({ market: 'BTC_USDT', clientOrderId: cid('never') })).toEqual([]);
    }));

    it('balances, markets and the credit line: funded assets, priced markets, no active loan', withRig(async (rig) => {
      const balances = await rig.gateway.balances();
      expect(balances.get('USDT')?.gt(0)).toBe(true);
      const markets = await rig.gateway.markets();
      const perp = markets.find((m) => m.tickerId === 'BTC_PERP');
      expect(perp).toMatchObject({ base: 'BTC', quote: 'USDT' });
      expect(perp?.lastPrice.gt(0)).toBe(true);
      expect(await rig.gateway.creditLine()).toEqual({ active: false });
    }));

    const flexCase = 'flex records: each once over several pages, newest first; filtered by plan, action and time; a close is listed';
    it(flexCase, withRig(async (rig) => {
      const start = rig.nowMs();
      rig.passDays(3);
      const pages = await all(rig.gateway.flexRecords({}));
      expect(pages.length).toBeGreaterThan(1);
      const records = pages.flat();
      expect(new Set(records.map((r) => r.transactionId)).size).toBe(records.length);
      expect(records.map((r) => r.createdAtMs)).toEqual(records.map((r) => r.createdAtMs).sort((a, b) => b - a));
      expect(records.filter((r) => r.actionType === 'DAILY_EARNING' && r.planId === rig.flexPlan)).toHaveLength(3);
      const secondDay = (Math.floor(start / DAY_MS) + 2) * DAY_MS;
      const later = (await all(rig.gateway.flexRecords({ plan: rig.flexPlan, actionTypes: ['DAILY_EARNING'], fromMs: secondDay }))).flat();
      expect(later.map((r) => r.createdAtMs)).toEqual([secondDay + DAY_MS, secondDay]);
      const { transactionId } = await rig.gateway.closeFlex(rig.flexPlan);
      const closes = (await all(rig.gateway.flexRecords({ plan: rig.flexPlan, actionTypes: ['CLOSE_INVESTMENT'] }))).flat();
      expect(closes.map((r) => r.transactionId)).toEqual([transactionId]);
    }));
  });
}

/** The fills of each page (the page's `repeated` count is 0 without arrivals while paging). */
async function* mapPages(pages: AsyncIterable<{ fills: Fill[]; repeated: number }>): AsyncGenerator<Fill[]> {
  for await (const p of pages) {
    expect(p.repeated).toBe(0);
    yield p.fills;
  }
}
