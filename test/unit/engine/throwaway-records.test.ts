/**
 * A backtest's throwaway store (daemon/engine.ts EngineOptions `throwawayStore`) leaves out what
 * only other readers read: the price history, repeated credit snapshots of no loan, and the status
 * records of each equity check. What the engine itself reads must be the same as with them: the
 * open minutes the strategies' candle windows take, the newest credit snapshot, the kill switch.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { checkEquity } from '../../../src/engine/equity-check.js';
import { equityOf } from '../../../src/engine/equity.js';
import type { EquityReading } from '../../../src/engine/equity-reader.js';
import { EquityWatch } from '../../../src/engine/equity-watch.js';
import { ACCOUNT_KEY } from '../../../src/engine/status-records.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import type { CreditLineState } from '../../../src/model/credit.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest, memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1);
function store(clock: ManualClock, durability: 'memory' | 'full' = 'memory'): Store {
  return durability === 'memory' ? memoryStore({ clock }) : closeAfterTest(openStore({ dataDir: tempDir(), clock, logger: silentLogger() }));
}

function listing(prices: Record<string, string>): FuturesMarket[] {
  return Object.entries(prices).map(([tickerId, price]) => {
    const p = dec(price);
    return { tickerId, base: tickerId.split('_')[0] as string, quote: 'USDT', lastPrice: p, baseVolume: p, quoteVolume: p, bid: p, ask: p, high: p, low: p, productType: 'Futures' };
  });
}

describe('prices without history', () => {
  it('move the open minutes as with history, and write no closed minute and no price sample', async () => {
    const clock = new ManualClock(T0 + 5_000);
    const full = store(clock);
    const bare = store(clock);
    let prices: Record<string, string> = { BTC_PERP: '100', ETH_PERP: '10' };
    const gateway = { markets: async () => listing(prices), balances: async () => new Map<string, Decimal>() };
    const withHistory = recordingPrices(gateway, full, clock, silentLogger(), 30, ['BTC_USDT']);
    const without = recordingPrices(gateway, bare, clock, silentLogger(), 30, ['BTC_USDT'], false);
    const polls: [number, Record<string, string>][] = [
      [0, prices],
      [20_000, { BTC_PERP: '103', ETH_PERP: '9' }],
      [20_000, { BTC_PERP: '98', ETH_PERP: '9.5' }],
      [30_000, { BTC_PERP: '99' }], // ETH_PERP left the listing: its minute closes once over
      [60_000, { BTC_PERP: '101' }],
      [120_000, { BTC_PERP: '101', ETH_PERP: '11' }],
    ];
    const markets = ['BTC_PERP', 'ETH_PERP', 'BTC_USDT'];
    for (const [advance, next] of polls) {
      clock.advance(advance);
      prices = next;
      await withHistory.markets();
      await without.markets();
      for (const m of markets) expect(bare.candles.openMinute(m), `${m} at +${clock.now() - T0}`).toEqual(full.candles.openMinute(m));
    }
    expect(full.candles.closed('BTC_PERP', '1m', 10).length).toBeGreaterThan(1);
    expect([...full.prices.range()].length).toBeGreaterThan(1);
    expect(bare.candles.closed('BTC_PERP', '1m', 10)).toEqual([]);
    expect(bare.candles.markets()).toEqual(['BTC_PERP', 'BTC_USDT', 'ETH_PERP']);
    expect([...bare.prices.range()]).toEqual([]);
  });

  it('are refused for a store on disk (its open minutes are for a restart and other readers)', () => {
    const clock = new ManualClock(T0);
    const gateway = { markets: async () => listing({}), balances: async () => new Map<string, Decimal>() };
    expect(() => recordingPrices(gateway, store(clock, 'full'), clock, silentLogger(), 30, [], false)).toThrow(/throwaway/);
  });
});

describe('credit snapshots of a throwaway store', () => {
  const loan = (ltv: string): CreditLineState => ({
    active: true,
    loan: { asset: 'USDT', amount: dec('100'), totalFunding: dec('100'), currentLtv: dec(ltv), initialLtv: dec('0.5'), marginCallLtv: dec('0.8'), liquidationLtv: dec('0.9'), createdAtMs: 0 },
  });

  it('record no loan once until a loan comes, and the newest snapshot says what every check would', async () => {
    const clock = new ManualClock(T0);
    const states: CreditLineState[] = [{ active: false }, { active: false }, loan('0.3'), loan('0.7'), { active: false }, { active: false }, { active: false }];
    let i = 0;
    const gateway = { creditLine: async () => states[i] } as unknown as ExchangeGateway;
    const every = store(clock);
    const once = store(clock);
    const job = (s: Store, recordEveryCheck: boolean): CreditJob =>
      new CreditJob({ store: s, gateway, clock, logger: silentLogger(), tradingState: new TradingStateController(s, clock, silentLogger()) }, { recordEveryCheck });
    const a = job(every, true);
    const b = job(once, false);
    const atMs: number[] = [];
    for (i = 0; i < states.length; i++) {
      clock.advance(60_000);
      expect(await b.runOnce()).toEqual(await a.runOnce());
      const [x, y] = [every.credit.latest(), once.credit.latest()];
      expect({ ...y, atMs: 0 }).toEqual({ ...x, atMs: 0 });
      expect(x?.atMs).toBe(clock.now());
      atMs.push((y?.atMs ?? 0) - T0);
    }
    expect(atMs).toEqual([60_000, 60_000, 180_000, 240_000, 300_000, 300_000, 300_000]);
  });
});

describe('an equity check without status records', () => {
  it('feeds the kill switch as with them and writes neither the account row nor the equity curve', async () => {
    const clock = new ManualClock(T0);
    const equity = equityOf({ equityAsset: 'USDT', balances: { USDT: dec('1000') }, held: {}, positions: [], flex: {}, prices: {} });
    const reading = { prices: {}, balances: { USDT: dec('1000') }, equity, settled: true, attempts: 1 } as unknown as EquityReading;
    const journal = { held: { byAsset: {}, orders: [], unruled: [] }, positions: [], flex: {}, unruled: [], pending: 0, fingerprint: '' };
    const run = async (s: Store, statusRecords: boolean): Promise<EquityWatch> => {
      const watch = new EquityWatch({ store: s, limits: { maxNotionalPerOrderQuote: new Decimal(1), maxDrawdownPct: new Decimal(10) }, onBreach: () => undefined });
      const deps = { equityAsset: 'USDT', markets: ['BTC_USDT'], store: s, clock, logger: silentLogger(), watch, statusRecords };
      await checkEquity({ ...deps, read: async () => ({ ...reading, journal }) });
      return watch;
    };
    const [withRecords, without] = [store(clock), store(clock)];
    const w1 = await run(withRecords, true);
    const w2 = await run(without, false);
    expect(w2.current?.currentQuote.toFixed()).toBe('1000');
    expect(w2.current?.peakQuote.toFixed()).toBe(w1.current?.peakQuote.toFixed());
    expect(withRecords.meta.get(ACCOUNT_KEY)).toBeDefined();
    expect(withRecords.console.equitySince(0).length).toBe(1);
    expect(without.meta.get(ACCOUNT_KEY)).toBeUndefined();
    expect(without.console.equitySince(0)).toEqual([]);
  });
});
