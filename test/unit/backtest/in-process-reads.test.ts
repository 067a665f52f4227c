/**
 * The in-process gateway's kept account reads (src/backtest/in-process-reads.ts): over a run of
 * price moves, resting orders, fills, flex earnings and a flex close, its balances, credit line
 * and flex history answers are always those of a gateway that asks the venue every time, it asks
 * again whenever what the answer reads moved (an order, a fill, an earning, a loan's price), and a
 * caller that changes an answer it was handed changes no later answer.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, type Decimal } from '../../../src/core/decimal.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import type { FlexRecord, FlexRecordQuery } from '../../../src/model/flex.js';
import type { Account } from '../../../src/simulator/account.js';
import type { AccountOptions } from '../../../src/simulator/options.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';

const T0 = Date.UTC(2024, 0, 1, 22);
const PLAN = '11111111-2222-4333-8444-555555555555';

function amounts(m: ReadonlyMap<string, Decimal>): Record<string, string> {
  return Object.fromEntries([...m].map(([k, v]) => [k, v.toFixed()]));
}

async function pages(g: ExchangeGateway, q: FlexRecordQuery): Promise<FlexRecord[][]> {
  const out: FlexRecord[][] = [];
  for await (const page of g.flexRecords(q)) out.push(page);
  return out;
}

interface Rig {
  clock: ManualClock;
  venue: Venue;
  account: Account;
  kept: ExchangeGateway;
  full: ExchangeGateway;
  /** Requests the venue answered so far for this account (both gateways). */
  asked: () => number;
}

function rig(account: Omit<AccountOptions, 'apiKey' | 'apiSecret'>): Rig {
  const clock = new ManualClock(T0);
  const venue = new Venue(clock, 11, defaultMarkets(), 60_000);
  const acc = venue.addAccount({ apiKey: 'k', apiSecret: 's', ...account });
  const api = inProcessApi(venue, acc);
  const catchUp = (): void => venue.catchUp();
  return {
    clock,
    venue,
    account: acc,
    kept: inProcessGateway(api, acc, { catchUp, flexPageSize: 2 }),
    full: inProcessGateway(api, acc, { catchUp, keepReads: false, flexPageSize: 2 }),
    asked: () => api.received(),
  };
}

/** The kept gateway's answers against the full one's; returns how many requests the kept one sent. */
async function compare(r: Rig, queries: readonly FlexRecordQuery[]): Promise<{ balances: number; credit: number; flex: number }> {
  const sent = async (read: () => Promise<unknown>): Promise<number> => {
    const before = r.asked();
    await read();
    return r.asked() - before;
  };
  let handed = new Map<string, Decimal>();
  const balances = await sent(async () => (handed = await r.kept.balances()));
  expect(amounts(handed)).toEqual(amounts(await r.full.balances()));
  // A caller that changes what it was handed changes nothing kept.
  handed.set('USDT', dec('0'));
  handed.delete('BTC');
  let line = await r.full.creditLine();
  const credit = await sent(async () => (line = await r.kept.creditLine()));
  expect(line).toEqual(await r.full.creditLine());
  let flex = 0;
  for (const q of queries) {
    let got: FlexRecord[][] = [];
    flex += await sent(async () => (got = await pages(r.kept, q)));
    expect(got).toEqual(await pages(r.full, q));
    for (const page of got) expect(Object.isFrozen(page) && page.every((rec) => Object.isFrozen(rec))).toBe(true);
  }
  return { balances, credit, flex };
}

describe('the in-process gateway keeping its account reads', () => {
  it('answers as the venue does through orders, fills, earnings and a close, and asks again whenever one moved the answer', async () => {
    const r = rig({ balances: { USDT: '100000', BTC: '2' }, flex: [{ currency: 'USDT', amount: '5000', dailyRate: '0.001', planId: PLAN }] });
    const queries: FlexRecordQuery[] = [{}, { fromMs: T0 + 3_600_000 }, { plan: PLAN, actionTypes: ['CLOSE_INVESTMENT'] }];
    await compare(r, queries);
    const quiet = await compare(r, queries);
    expect(quiet).toEqual({ balances: 0, credit: 0, flex: 0 });
    const order = { market: 'BTC_USDT', amount: dec('0.01'), postOnly: false, ioc: false, rpi: false, kind: 'spot' as const };
    const price = (): Decimal => r.venue.markets.get('BTC_USDT')?.price ?? dec('0');
    const steps: { name: string; act: () => void; balances: boolean; flex: boolean }[] = [
      { name: 'price move', act: () => r.clock.advance(60_000), balances: false, flex: false },
      { name: 'resting order', act: () => void r.venue.place(r.account, { ...order, side: 'buy', price: price().mul('0.5').toDecimalPlaces(2), clientOrderId: 'rest' }), balances: true, flex: false },
      { name: 'fill', act: () => void r.venue.place(r.account, { ...order, side: 'buy', price: price().mul('1.5').toDecimalPlaces(2), clientOrderId: 'take' }), balances: true, flex: false },
      { name: 'daily earning', act: () => r.clock.advance(3 * 3_600_000), balances: false, flex: true },
    ];
    for (const step of steps) {
      step.act();
      const moved = await compare(r, queries);
      expect(moved.balances > 0, step.name).toBe(step.balances);
      expect(moved.flex > 0, step.name).toBe(step.flex);
      expect(await compare(r, queries), `${step.name}, again`).toEqual({ balances: 0, credit: 0, flex: 0 });
    }
    await r.kept.closeFlex(PLAN);
    const closed = await compare(r, queries);
    expect(closed.balances > 0 && closed.flex > 0).toBe(true);
    expect((await pages(r.kept, queries[2] as FlexRecordQuery)).flat().map((x) => x.actionType)).toEqual(['CLOSE_INVESTMENT']);
  });

  it('asks for a loan every time (its LTV follows the price) and hands out a frozen "no active loan"', async () => {
    const loan = rig({ balances: { USDT: '10' }, loan: { asset: 'USDT', amount: '1000', collateralAsset: 'BTC', collateralAmount: '1' } });
    for (let i = 0; i < 3; i++) {
      loan.clock.advance(60_000);
      expect((await compare(loan, [])).credit).toBe(1);
    }
    const none = rig({ balances: { USDT: '10' } });
    await compare(none, []);
    const line = await none.kept.creditLine();
    expect(line).toEqual({ active: false });
    expect(Object.isFrozen(line)).toBe(true);
  });

  it('keeps nothing from a flex read stopped early', async () => {
    const r = rig({ flex: [1, 2, 3].map((n) => ({ currency: 'USDT', amount: `${n}00`, dailyRate: '0.001' })) });
    for await (const page of r.kept.flexRecords({})) if (page.length > 0) break;
    const before = r.asked();
    expect(await pages(r.kept, {})).toEqual(await pages(r.full, {}));
    expect(r.asked() - before).toBeGreaterThan(2);
  });
});
