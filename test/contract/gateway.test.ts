/** The gateway contract (gateway.contract.ts) against the real adapter over the simulator, the backtest's in-process venue and the fake. */
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import type { FuturesMarket } from '../../src/model/markets.js';
import type { LimitOrderRequest } from '../../src/model/venue-orders.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import { createVenueGateway } from '../../src/exchange/venue-gateway.js';
import { inProcessApi } from '../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../src/backtest/in-process-venue.js';
import { startSimulator } from '../../src/simulator/index.js';
import { defaultMarkets } from '../../src/simulator/options.js';
import { Venue } from '../../src/simulator/venue.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { DAY_MS, gatewayContract, type GatewayRig } from './gateway.contract.js';

const START_MS = 1_700_000_000_000;
const PLAN = '8f1c2a3e-0000-4000-8000-000000000001';
const PAGING = { historyPageSize: 2, flexPageSize: 2 };

async function simulatorRig(): Promise<GatewayRig> {
  const clock = new ManualClock(START_MS);
  const keys = { apiKey: 'contract-key', apiSecret: 'contract-secret' };
  const sim = await startSimulator({
    clock,
    seed: 11,
    stepMs: 60_000,
    accounts: [
      {
        ...keys,
        balances: { USDT: '1000000', BTC: '10' },
        flex: [{ currency: 'USDT', amount: '1000', dailyRate: '0.001', planId: PLAN }],
      },
    ],
  });
  // The client keeps the system clock for its timeouts; venue time is the simulator's.
  const client = createApiClient({ baseUrl: sim.baseUrl, ...keys, clock: new SystemClock(), retry: { attempts: 1 } });
  return {
    gateway: createVenueGateway(client, PAGING),
    nowMs: () => sim.prices().time,
    advance: (ms) => clock.advance(ms),
    passDays: (n) => clock.advance(n * DAY_MS),
    price: (market) => new Decimal(sim.prices().prices[market] as string),
    flexPlan: PLAN,
    async close() {
      await client.close();
      await sim.close();
    },
  };
}

function futuresEntry(tickerId: string, base: string, quote: string, price: Decimal): FuturesMarket {
  const zero = new Decimal(0);
  const prices = { lastPrice: price, bid: price, ask: price, high: price, low: price };
  return { tickerId, base, quote, ...prices, baseVolume: zero, quoteVolume: zero, productType: 'Futures' };
}

/** The fake prepared like the simulator account: orders crossing the price fill at once; too big ones lack funds. */
async function fakeRig(): Promise<GatewayRig> {
  const clock = new ManualClock(START_MS);
  const g = new FakeGateway(() => clock.now());
  Object.assign(g, PAGING);
  const prices: Record<string, Decimal> = { BTC_USDT: new Decimal('60000'), BTC_PERP: new Decimal('60000') };
  const crosses = (o: LimitOrderRequest): boolean => {
    const p = prices[o.market] as Decimal;
    return o.side === 'buy' ? o.price.gte(p) : o.price.lte(p);
  };
  g.place = (o) => (o.amount.gt(50) ? 'reject' : crosses(o) ? 'fill' : 'place');
  g.balanceMap = new Map([['USDT', new Decimal('1000000')], ['BTC', new Decimal('10')]]);
  g.marketList = [futuresEntry('BTC_PERP', 'BTC', 'USDT', prices['BTC_PERP'] as Decimal)];
  const flex = { planId: PLAN, investmentId: 'inv-1', currency: 'USDT' };
  g.flexLedger = [{ ...flex, transactionId: 'invest-1', createdAtMs: START_MS, amount: new Decimal('1000'), actionType: 'INVEST' }];
  return {
    gateway: g,
    nowMs: () => clock.now(),
    advance: (ms) => clock.advance(ms),
    passDays(n) {
      const end = clock.now() + n * DAY_MS;
      for (let day = (Math.floor(clock.now() / DAY_MS) + 1) * DAY_MS; day <= end; day += DAY_MS) {
        const earning = { transactionId: `earn-${day}`, createdAtMs: day, amount: new Decimal('1') };
        g.flexLedger.push({ ...flex, ...earning, actionType: 'DAILY_EARNING' });
      }
      clock.advance(n * DAY_MS);
    },
    price: (market) => prices[market] as Decimal,
    flexPlan: PLAN,
    close: async () => undefined,
  };
}

/** The backtest's in-process venue: the same simulator driven directly (src/backtest/in-process-venue.ts). */
async function inProcessRig(): Promise<GatewayRig> {
  const clock = new ManualClock(START_MS);
  const venue = new Venue(clock, 11, defaultMarkets(), 60_000);
  const account = venue.addAccount({
    apiKey: 'contract-key',
    apiSecret: 'contract-secret',
    balances: { USDT: '1000000', BTC: '10' },
    flex: [{ currency: 'USDT', amount: '1000', dailyRate: '0.001', planId: PLAN }],
  });
  return {
    gateway: inProcessGateway(inProcessApi(venue, account), account, PAGING),
    nowMs: () => venue.nowMs(),
    advance: (ms) => clock.advance(ms),
    passDays: (n) => clock.advance(n * DAY_MS),
    price: (market) => {
      venue.catchUp();
      return venue.requireMarket(market).price;
    },
    flexPlan: PLAN,
    close: async () => undefined,
  };
}

gatewayContract('the API v4 adapter over the simulator', simulatorRig);
gatewayContract('the backtest\'s in-process venue', inProcessRig);
gatewayContract('FakeGateway', fakeRig);
