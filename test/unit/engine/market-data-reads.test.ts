/**
 * MarketData's reads of the venue (src/engine/market-data.ts): one refresh at a time, shared by
 * the `get()`s that come while it runs, waited for by `fresh()`, which then reads anew; a failed
 * read reaches every waiting caller with its very reason and is forgotten, so the next call reads
 * again. Random sequences of calls, answers and failures are held to a model of those rules.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { MarketData } from '../../../src/engine/market-data.js';
import type { FuturesMarket } from '../../../src/model/markets.js';

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** A gateway whose listing reads wait until the test settles them, each answering its own number. */
function gatewayHeld() {
  const pending: Pending[] = [];
  let reads = 0;
  const gateway = {
    markets: () => {
      const n = ++reads;
      return new Promise<FuturesMarket[]>((resolve, reject) => {
        const price = dec(String(n));
        const entry = { tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: price, bid: price, ask: price } as FuturesMarket;
        pending.push({ resolve: () => resolve([entry]), reject });
      });
    },
    balances: async () => new Map([['USDT', dec('1')]]),
  };
  return { gateway, pending, reads: () => reads };
}

/** Lets every queued microtask run (the reads' continuations are a few promise hops deep). */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe('MarketData reads', () => {
  it('passes a failed read on with its very reason to every caller waiting for it, then reads again', async () => {
    const held = gatewayHeld();
    const market = new MarketData(held.gateway, new ManualClock(0), 1_000);
    const boom = new Error('venue down');
    const a = market.get();
    const b = market.get();
    await drain();
    expect(held.reads()).toBe(1);
    held.pending[0]?.reject(boom);
    await expect(a).rejects.toBe(boom);
    await expect(b).rejects.toBe(boom);
    const c = market.get();
    await drain();
    expect(held.reads()).toBe(2);
    held.pending[1]?.resolve();
    expect((await c).prices.BTC_PERP?.last.toFixed()).toBe('2');
  });

  it('follows the one-read-at-a-time rules over random calls, answers and failures', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const held = gatewayHeld();
      const clock = new ManualClock(0);
      const market = new MarketData(held.gateway, clock, 1_000);
      /** Each caller's outcome: the read number it got, or the error. */
      const outcomes: Promise<string>[] = [];
      let settledReads = 0;
      const failures = new Set<number>();
      let okRead = 0;
      let okAt: number | undefined;
      /** The read each caller must get. */
      const awaitedRead: number[] = [];
      for (let step = 0; step < 60; step++) {
        const r = rnd();
        if (r < 0.3) {
          // The read after every one started so far (one still open is waited for first).
          const started = held.reads();
          const p = market.fresh();
          outcomes.push(p.then((x) => x.prices.BTC_PERP?.last.toFixed() ?? '', (e: Error) => e.message));
          awaitedRead.push(started + 1);
        } else if (r < 0.5) {
          // Recent: the last read that answered; else the open read, or a new one.
          const recent = okAt !== undefined && clock.now() - okAt <= 1_000;
          const open = held.pending.length > settledReads;
          const started = held.reads();
          const p = market.get();
          outcomes.push(p.then((x) => x.prices.BTC_PERP?.last.toFixed() ?? '', (e: Error) => e.message));
          awaitedRead.push(recent ? okRead : open ? started : started + 1);
        } else if (r < 0.8 && held.pending.length > settledReads) {
          const n = settledReads++;
          if (rnd() < 0.3) {
            failures.add(n + 1);
            held.pending[n]?.reject(new Error(`fail ${n + 1}`));
          } else {
            held.pending[n]?.resolve();
            okRead = n + 1;
            okAt = clock.now();
          }
        } else clock.advance(rnd() < 0.5 ? 500 : 1_500);
        await drain();
        // Never more than one read open at a time.
        expect(held.pending.length - settledReads, `seed ${seed} step ${step}`).toBeLessThanOrEqual(1);
      }
      while (held.pending.length > settledReads) {
        held.pending[settledReads++]?.resolve();
        await drain();
      }
      expect(awaitedRead).not.toContain(0);
      const got = await Promise.all(outcomes);
      got.forEach((g, i) => {
        const want = awaitedRead[i] as number;
        expect(g, `seed ${seed} caller ${i}`).toBe(failures.has(want) ? `fail ${want}` : String(want));
      });
    }
  });
});
