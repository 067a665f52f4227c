/**
 * MarketData reads a venue that answers at once (`ExchangeGateway.marketsNow`/`balancesNow`, the
 * in-process gateway) without a request's turns. Two venues driven alike (the same seed, the same
 * price steps, orders and fills), one read through the recorder and gateway offering both, one
 * through the same recorder and gateway with only `markets` and `balances`: every `fresh`, `get`
 * and `current` must give the same prices and balances, the venue must count the same requests
 * (the run loop's sign of progress), and the open minutes the recorder folds must be the same. A
 * failing read fails both ways, and the next read reads again.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, type Decimal } from '../../../src/core/decimal.js';
import { inProcessApi, type InProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import { MarketData, type MarketReading } from '../../../src/engine/market-data.js';
import type { ExchangeGateway } from '../../../src/exchange/gateway.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { Account } from '../../../src/simulator/account.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Prng } from '../../../src/simulator/prng.js';
import { Venue } from '../../../src/simulator/venue.js';
import { openScratchStore, type Store } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1);
const MARKETS = ['BTC_USDT', 'BTC_PERP'];

interface Side {
  venue: Venue;
  account: Account;
  api: InProcessApi;
  store: Store;
  data: MarketData;
}

function side(clock: ManualClock, now: boolean, keepReads: boolean): Side {
  const venue = new Venue(clock, 29, defaultMarkets(), 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '50000', BTC: '1' } });
  const api = inProcessApi(venue, account);
  const gateway = inProcessGateway(api, account, { catchUp: () => venue.catchUp(), keepReads });
  const asked: Pick<ExchangeGateway, 'markets' | 'balances'> = { markets: () => gateway.markets(), balances: () => gateway.balances() };
  const store = closeAfterTest(openScratchStore({ clock, logger: silentLogger() }));
  const recorded = recordingPrices(now ? gateway : asked, store, clock, silentLogger(), 30, MARKETS, false);
  expect(recorded.marketsNow !== undefined).toBe(now);
  return { venue, account, api, store, data: new MarketData(recorded, clock, 1_000) };
}

function text(r: MarketReading | undefined): unknown {
  if (r === undefined) return undefined;
  const prices = Object.entries(r.prices).map(([k, p]) => [k, p.ticker, p.last.toFixed(), p.bid.toFixed(), p.ask.toFixed(), p.index?.toFixed()]);
  return { prices, balances: Object.entries(r.balances).map(([k, v]) => [k, v.toFixed()]) };
}

describe('market data read from a venue that answers at once', () => {
  it('reads what the asking path reads, through price steps, orders and fills', async () => {
    for (const keepReads of [true, false]) {
      const clock = new ManualClock(T0);
      const [asked, now] = [side(clock, false, keepReads), side(clock, true, keepReads)];
      const rng = new Prng(keepReads ? 3 : 4);
      for (let i = 0; i < 300; i++) {
        clock.advance(Math.floor(rng.next() * 4) * 500 + (rng.next() < 0.3 ? 60_000 : 0));
        if (rng.next() < 0.15) {
          const buy = rng.next() < 0.5;
          const offset = dec((1 + (rng.next() - 0.5) * 0.01).toFixed(6));
          for (const s of [asked, now]) {
            s.venue.catchUp();
            const price = (s.venue.markets.get('BTC_USDT')?.price as Decimal).mul(offset).toDecimalPlaces(2);
            s.venue.place(s.account, { market: 'BTC_USDT', side: buy ? 'buy' : 'sell', amount: dec('0.01'), price, postOnly: false, ioc: false, rpi: false, kind: 'spot', clientOrderId: `o${i}` });
          }
        }
        const how = rng.next();
        const read = async (s: Side): Promise<unknown> => {
          const before = s.api.received();
          const r = how < 0.5 ? await s.data.fresh() : how < 0.8 ? await s.data.get() : s.data.current();
          return { reading: text(r), requests: s.api.received() - before, open: MARKETS.map((m) => s.store.candles.openMinute(m)) };
        };
        expect(await read(now), `keepReads ${keepReads}, step ${i}`).toEqual(await read(asked));
      }
    }
  });

  it('fails a read that fails, as the asking path does, and reads again after it', async () => {
    const clock = new ManualClock(T0);
    const futures = [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: dec('100'), bid: dec('99'), ask: dec('101') }];
    let failing = true;
    const answer = (): Map<string, Decimal> => {
      if (failing) throw new Error('venue down');
      return new Map([['USDT', dec('5')]]);
    };
    const base = { markets: async () => futures as never, balances: async () => answer() };
    const datas = [new MarketData(base, clock, 1_000), new MarketData({ ...base, marketsNow: () => futures as never, balancesNow: answer }, clock, 1_000)];
    for (const data of datas) {
      await expect(data.fresh()).rejects.toThrow('venue down');
      await expect(data.get()).rejects.toThrow('venue down');
    }
    failing = false;
    const readings = await Promise.all(datas.map(async (d) => text(await d.fresh())));
    expect(readings[1]).toEqual(readings[0]);
    expect(readings[0]).toEqual({ prices: [['BTC_PERP', 'BTC_PERP', '100', '99', '101', undefined], ['BTC_USDT', 'BTC_PERP', '100', '99', '101', undefined]], balances: [['USDT', '5']] });
  });
});
