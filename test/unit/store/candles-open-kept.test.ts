/**
 * The candles repository keeps the open minutes in memory (candles-repo.ts): what it answers must
 * stay what the table holds (another connection reads it, a restart continues from it), after
 * every fold, a new minute, closeEnded and prune, and after a transaction that rolled back. A store
 * in memory keeps the open minutes in memory only: every read must answer as a store on disk does.
 */
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, openStoreReadOnly, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest, memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function open(dataDir = tempDir('v4bot-candles-kept-'), clock = new ManualClock(T0)): { store: Store; clock: ManualClock; dataDir: string } {
  const store = closeAfterTest(openStore({ dataDir, clock, logger: silentLogger() }));
  return { store, clock, dataDir };
}

/** The open minutes as another connection sees them in the file. */
function tableRows(store: Store): unknown[] {
  const db = new Database(store.file, { readonly: true });
  try {
    return db.prepare('SELECT market, open_ms, open, high, low, close FROM candles_open ORDER BY market').all();
  } finally {
    db.close();
  }
}

/** The open minutes as the repository answers them. */
function keptRows(store: Store, markets: readonly string[]): unknown[] {
  return markets.flatMap((m) => {
    const r = store.candles.openMinute(m);
    return r === undefined ? [] : [{ market: m, open_ms: r.open_ms, open: r.open, high: r.high, low: r.low, close: r.close }];
  });
}

function listing(price: string): FuturesMarket[] {
  const p = dec(price);
  return [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: p, baseVolume: p, quoteVolume: p, bid: p, ask: p, high: p, low: p, productType: 'Futures' }];
}

describe('the open minutes kept in memory', () => {
  it('answer what the table holds after every fold, repeat, new minute, closeEnded and prune', () => {
    const { store } = open();
    const markets = ['BTC_PERP', 'ETH_PERP'];
    const steps: [string, number, string][] = [
      ['BTC_PERP', 1_000, '10'], ['BTC_PERP', 2_000, '10'], ['ETH_PERP', 3_000, '5'], ['BTC_PERP', 4_000, '12'], ['BTC_PERP', 5_000, '12'],
      ['BTC_PERP', 6_000, '9'], ['BTC_PERP', 7_000, '11'], ['BTC_PERP', MIN + 1_000, '13'], ['BTC_PERP', MIN + 2_000, '13'],
    ];
    for (const [m, at, p] of steps) {
      store.candles.fold(m, T0 + at, dec(p));
      expect(keptRows(store, markets)).toEqual(tableRows(store));
    }
    expect(store.candles.openMinute('BTC_PERP')).toMatchObject({ open_ms: T0 + MIN, open: '13', high: '13', low: '13', close: '13' });
    // ETH_PERP left the listing: its minute closes once over, and the closed minute is the one it built.
    expect(store.candles.closeEnded(T0 + MIN)).toBe(1);
    expect(keptRows(store, markets)).toEqual(tableRows(store));
    expect(store.candles.minutes('ETH_PERP', T0, T0 + MIN)).toEqual([{ open_ms: T0, open: '5', high: '5', low: '5', close: '5', volume: null }]);
    expect(store.candles.minutes('BTC_PERP', T0, T0 + MIN)).toEqual([{ open_ms: T0, open: '10', high: '12', low: '9', close: '11', volume: null }]);
    store.candles.prune(T0 + 2 * MIN);
    expect(keptRows(store, markets)).toEqual([]);
    expect(tableRows(store)).toEqual([]);
  });

  it('a reader cannot change the kept row through what it was handed', () => {
    const { store } = open();
    store.candles.fold('BTC_PERP', T0 + 1_000, dec('10'));
    const handed = store.candles.openMinute('BTC_PERP');
    if (handed === undefined) throw new Error('expected an open minute');
    handed.high = '99';
    expect(store.candles.openMinute('BTC_PERP')?.high).toBe('10');
  });

  it('a recorder transaction that rolled back leaves the table and the answers as they were', async () => {
    const { store, clock } = open(undefined, new ManualClock(T0 + 1_000));
    let price = '100';
    const gw = recordingPrices({ markets: async () => listing(price), balances: async () => new Map() }, store, clock, silentLogger());
    await gw.markets();
    // The next poll's sample write fails (a new minute): the whole transaction, its folds too, rolls back.
    clock.advance(MIN);
    price = '120';
    const failing = vi.spyOn(store.prices, 'record').mockImplementation(() => {
      throw new Error('disk full');
    });
    await gw.markets();
    failing.mockRestore();
    expect(tableRows(store)).toEqual([{ market: 'BTC_PERP', open_ms: T0, open: '100', high: '100', low: '100', close: '100' }]);
    expect(keptRows(store, ['BTC_PERP'])).toEqual(tableRows(store));
    expect(store.candles.minutes('BTC_PERP', T0, T0 + 2 * MIN)).toEqual([]);
    // The next poll folds on what the table holds.
    await gw.markets();
    expect(store.candles.minutes('BTC_PERP', T0, T0 + 2 * MIN)).toEqual([{ open_ms: T0, open: '100', high: '100', low: '100', close: '100', volume: null }]);
    expect(keptRows(store, ['BTC_PERP'])).toEqual(tableRows(store));
  });

  it('a read-only store (npm run status) sees every write the daemon makes after its first read', () => {
    const { store, dataDir, clock } = open();
    store.candles.fold('BTC_PERP', T0 + 1_000, dec('10'));
    const reader = openStoreReadOnly(dataDir, clock);
    try {
      expect(reader.candles.openMinute('BTC_PERP')).toMatchObject({ open_ms: T0, close: '10' });
      store.candles.fold('BTC_PERP', T0 + 2_000, dec('12'));
      expect(reader.candles.openMinute('BTC_PERP')).toMatchObject({ open_ms: T0, high: '12', close: '12' });
      store.candles.fold('BTC_PERP', T0 + MIN + 1_000, dec('11'));
      expect(reader.candles.openMinute('BTC_PERP')).toMatchObject({ open_ms: T0 + MIN, open: '11' });
      expect(reader.candles.minutes('BTC_PERP', T0, T0 + MIN)).toEqual([{ open_ms: T0, open: '10', high: '12', low: '10', close: '12', volume: null }]);
    } finally {
      reader.close();
    }
  });

  it('a reopened store continues the minute the table holds', () => {
    const first = open();
    first.store.candles.fold('BTC_PERP', T0 + 1_000, dec('10'));
    first.store.candles.fold('BTC_PERP', T0 + 2_000, dec('8'));
    first.store.close();
    const again = open(first.dataDir, new ManualClock(T0 + 3_000));
    again.store.candles.fold('BTC_PERP', T0 + 3_000, dec('11'));
    expect(again.store.candles.openMinute('BTC_PERP')).toMatchObject({ open: '10', high: '11', low: '8', close: '11' });
  });
});

describe('a store in memory keeps the open minutes in memory only', () => {
  it('answers every read as a store on disk fed the same prices', () => {
    const clockDisk = new ManualClock(T0);
    const clockMem = new ManualClock(T0);
    const disk = open(undefined, clockDisk).store;
    const mem = memoryStore({ clock: clockMem });
    const markets = ['BTC_PERP', 'BTC_USDT', 'ETH_PERP'];
    const reads = (s: Store): unknown => ({
      markets: s.candles.markets(),
      open: markets.map((m) => [s.candles.openMinute(m), s.candles.open(m, '1m'), s.candles.open(m, '5m')]),
      closed: markets.map((m) => [s.candles.closed(m, '1m', 20), s.candles.closed(m, '5m', 5), s.candles.minutes(m, 0, T0 + 60 * MIN)]),
    });
    let price = 100;
    for (let i = 0; i < 40; i++) {
      const at = i * 17_000;
      price += (i * 7919) % 11 - 5;
      const steps = (s: Store, c: ManualClock): unknown[] => {
        c.advanceTo(T0 + at);
        s.candles.fold(i % 4 === 3 ? 'ETH_PERP' : 'BTC_PERP', T0 + at, dec(String(price)));
        if (i % 5 === 0) s.candles.fold('BTC_USDT', T0 + at, dec(String(price + 0.5)));
        const done = [s.candles.closeEnded(T0 + at)];
        if (i === 30) done.push(s.candles.prune(T0 + 3 * MIN));
        return done;
      };
      expect(steps(mem, clockMem)).toEqual(steps(disk, clockDisk));
      expect(reads(mem)).toEqual(reads(disk));
    }
    expect((reads(mem) as { markets: string[] }).markets).toEqual(markets);
  });
});
