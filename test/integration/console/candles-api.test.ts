/**
 * `GET /api/candles` over real HTTP, from a real SQLite store seeded through the real repositories
 * (test/support/candle-chart-harness.ts): the candles of a traded market with the gap kept, the
 * open candle and its live update, the bot's own fills of that market and window, the live
 * protective legs, decimal strings throughout, the count bound per timeframe, the state
 * document's chart list, 400 on bad input with a clear message, and the console's auth.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { at, fillOrder, minutePrices, NOW, startChartHarness, TOKEN, type ChartHarness } from '../../support/candle-chart-harness.js';

interface Candle { t: number; open: string; high: string; low: string; close: string; volume: string | null; minutes: number }
interface Answer {
  market: string;
  source: string;
  timeframe: string;
  count: number;
  candles: Candle[];
  open: Candle | null;
  fills: { dealId: number; t: number; side: string; amount: string; price: string; strategyId: string | null }[];
  legs: { kind: string; price: string; state: string; strategyId: string }[];
}

let h: ChartHarness;

afterEach(async () => {
  await h.close();
});

async function get(query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${h.base}/api/candles?${query}`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function answer(query: string): Promise<Answer> {
  const r = await get(query);
  expect(r.status).toBe(200);
  return r.body as unknown as Answer;
}

/** The 15m candle the seeded minutes of [start, start + 15 min) make. */
function expected15m(start: number): Omit<Candle, 'volume'> {
  const mins = Array.from({ length: 15 }, (_, i) => minutePrices(start + i * 60_000));
  const max = mins.reduce((a, m) => (dec(m.high).gt(a) ? m.high : a), mins[0]?.high ?? '');
  const min = mins.reduce((a, m) => (dec(m.low).lt(a) ? m.low : a), mins[0]?.low ?? '');
  return { t: start, open: mins[0]?.open ?? '', high: max, low: min, close: mins[14]?.close ?? '', minutes: 15 };
}

describe('GET /api/candles', () => {
  it('serves a traded market: closed candles with the gap kept, the open candle, own fills in the window, live legs', async () => {
    h = await startChartHarness();
    const a = await answer('market=BTC_PERP&timeframe=15m&count=200');
    expect(a).toMatchObject({ market: 'BTC_PERP', timeframe: '15m', count: 200 });
    const starts = a.candles.map((c) => c.t);
    expect(starts).toHaveLength(20);
    expect(starts[0]).toBe(at(4, 0));
    expect(starts[19]).toBe(at(9, 45));
    // 06:00-06:59 has no minute: no candle is invented for it.
    for (const m of [0, 15, 30, 45]) expect(starts).not.toContain(at(6, m));
    expect(starts).toContain(at(5, 45));
    expect(starts).toContain(at(7, 0));
    expect(a.candles[0]).toEqual({ ...expected15m(at(4, 0)), volume: '22.5' });
    expect(a.candles[19]).toMatchObject(expected15m(at(9, 45)));
    // The bucket being built: 10:00-10:07, the 10:07 minute still open; no volume (live prices).
    expect(a.open).toMatchObject({ t: at(10, 0), minutes: 8, volume: null, open: minutePrices(at(10, 0)).close, close: minutePrices(at(10, 7)).close });
    // Own fills of BTC_PERP since the first candle: the 08:20 buy, not the 02:00 sell nor BTC_USDT's.
    expect(a.fills).toEqual([expect.objectContaining({ t: at(8, 20), side: 'buy', amount: '0.001', price: '60000', strategyId: 'trend1' })]);
    // Live legs only (the older order's legs are cancelled), prices as decimal strings.
    expect(a.legs.map((l) => [l.kind, l.price, l.state, l.strategyId]).sort()).toEqual([
      ['stop_loss', '59000', 'active', 'trend1'],
      ['take_profit', '62000', 'armed', 'trend1'],
    ]);
    for (const c of a.candles) for (const v of [c.open, c.high, c.low, c.close]) expect(typeof v).toBe('string');
  });

  it('aggregates other timeframes and filters by market', async () => {
    h = await startChartHarness();
    const hours = await answer('market=BTC_PERP&timeframe=1h&count=4');
    expect(hours.candles.map((c) => c.t)).toEqual([at(5, 0), at(7, 0), at(8, 0), at(9, 0)]);
    expect(hours.candles.map((c) => c.minutes)).toEqual([60, 60, 60, 60]);
    const spot = await answer('market=BTC_USDT');
    expect(spot.timeframe).toBe('15m');
    expect(spot.source).toBe('BTC_USDT');
    expect(spot.candles.map((c) => c.t)).toEqual([at(9, 0), at(9, 15), at(9, 30), at(9, 45)]);
    expect(spot.open).toBeNull();
    expect(spot.fills).toEqual([expect.objectContaining({ side: 'sell', amount: '0.002', price: '60150.5', strategyId: 'grid1' })]);
    expect(spot.legs).toEqual([]);
  });

  it('draws a market with no candles of its own with those of the listing ticker that prices it', async () => {
    h = await startChartHarness();
    const eth = await answer('market=ETH_USDT&timeframe=15m');
    expect(eth.source).toBe('ETH_PERP');
    expect(eth.candles.map((c) => c.t)).toEqual([at(9, 0), at(9, 15), at(9, 30), at(9, 45)]);
    expect(eth.candles[0]).toMatchObject(expected15m(at(9, 0)));
    expect((await answer('market=BTC_PERP')).source).toBe('BTC_PERP');
  });

  it('bounds the minutes one read folds: 1d serves at most 30 candles, 4h 180', async () => {
    h = await startChartHarness();
    expect((await answer('market=BTC_PERP&timeframe=1d&count=200')).count).toBe(30);
    expect((await answer('market=BTC_PERP&timeframe=4h&count=500')).count).toBe(180);
    expect((await answer('market=BTC_PERP&timeframe=1m&count=500')).count).toBe(500);
  });

  it('shows a new price in the open candle and a new fill on the next request', async () => {
    h = await startChartHarness();
    const before = await answer('market=BTC_PERP&timeframe=15m');
    h.clock.advance(20_000);
    h.store.candles.fold('BTC_PERP', h.clock.now(), dec('61234.5'));
    fillOrder(h, { strategyId: 'trend1', kind: 'collateral', market: 'BTC_PERP', side: 'sell', amount: '0.0005', price: '61234.5', timeMs: h.clock.now() });
    const after = await answer('market=BTC_PERP&timeframe=15m');
    expect(after.candles).toEqual(before.candles);
    expect(after.open).toMatchObject({ t: at(10, 0), high: '61234.5', close: '61234.5', minutes: 8 });
    expect(after.fills.map((f) => [f.side, f.amount, f.price])).toEqual([['buy', '0.001', '60000'], ['sell', '0.0005', '61234.5']]);
  });

  it('after a bucket ends, serves what a full read gives: the closed bucket appended, the oldest dropped', async () => {
    h = await startChartHarness();
    expect((await answer('market=BTC_PERP&timeframe=15m&count=3')).candles.map((c) => c.t)).toEqual([at(9, 15), at(9, 30), at(9, 45)]);
    for (let t = at(10, 8) + 10_000; t <= at(10, 16) + 10_000; t += 60_000) {
      h.clock.advanceTo(t);
      h.store.candles.fold('BTC_PERP', t, dec(minutePrices(t).close));
    }
    const after = await answer('market=BTC_PERP&timeframe=15m&count=3');
    expect(after.candles.map((c) => c.t)).toEqual([at(9, 30), at(9, 45), at(10, 0)]);
    const full = h.store.candles.closed('BTC_PERP', '15m', 3).map((c) => ({ t: c.openMs, close: c.close.toFixed(), high: c.high.toFixed(), minutes: c.minutes }));
    expect(after.candles.map((c) => ({ t: c.t, close: c.close, high: c.high, minutes: c.minutes }))).toEqual(full);
    expect(after.candles[2]?.minutes).toBe(15);
    expect(after.open).toMatchObject({ t: at(10, 15), minutes: 2 });
  });

  it('refuses bad input with 400 and a clear message', async () => {
    h = await startChartHarness();
    const cases: Array<[string, RegExp]> = [
      ['timeframe=15m', /market is required/],
      ['market=ETH_PERP', /market must be one of the traded markets \(BTC_USDT, BTC_PERP, ETH_USDT\)/],
      ['market=btc_perp', /traded markets/],
      ['market=BTC_PERP&timeframe=2m', /timeframe must be one of 1m, 5m, 15m, 1h, 4h, 1d/],
      ['market=BTC_PERP&count=0', /count must be a whole number from 1 to 500/],
      ['market=BTC_PERP&count=501', /count must be a whole number from 1 to 500/],
      ['market=BTC_PERP&count=2.5', /count must be a whole number/],
      ['market=BTC_PERP&count=-3', /count must be a whole number/],
    ];
    for (const [query, message] of cases) {
      const r = await get(query);
      expect(r.status, query).toBe(400);
      expect(r.body['error']).toBe('bad_request');
      expect(String(r.body['message']), query).toMatch(message);
    }
  });

  it('lists the traded markets and the picker in the state document, additively', async () => {
    h = await startChartHarness();
    const st = (await (await fetch(`${h.base}/api/state`)).json()) as Record<string, unknown>;
    expect(st['charts']).toEqual({ markets: ['BTC_USDT', 'BTC_PERP', 'ETH_USDT'], timeframes: ['1m', '5m', '15m', '1h', '4h', '1d'], defaultTimeframe: '15m' });
    for (const key of ['strategies', 'positions', 'fills', 'equity', 'markets']) expect(st).toHaveProperty(key);
    expect(NOW).toBe(st['nowMs']);
  });

  it('needs the token or the session beyond loopback, like /api/state', async () => {
    h = await startChartHarness({ loopbackOnly: false });
    expect((await get('market=BTC_PERP')).status).toBe(401);
    expect((await get('market=BTC_PERP', { authorization: 'Bearer wrong-token-0123456789abcdefgh' })).status).toBe(401);
    const ok = await get('market=BTC_PERP', { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect((ok.body['candles'] as unknown[]).length).toBe(20);
  });
});
