/**
 * A bulk list is validated once on its way to the venue (src/exchange/bulk/request.ts): the
 * chunks `bulkChunks` cuts from a list it validated are frozen and passed on as they are, and any
 * other list, a copy of such a chunk included, is validated before anything is sent, by the
 * HTTP client and by the in-process API alike.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { InvalidRequestError } from '../../../src/core/errors.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { bulkChunks, isValidatedChunk } from '../../../src/exchange/bulk/request.js';
import type { LimitOrderInput } from '../../../src/exchange/requests.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';

const order = (i: number): LimitOrderInput => ({ market: 'BTC_USDT', side: 'buy', amount: dec('0.001'), price: dec(String(50_000 + i)), clientOrderId: `c-${i}` });

describe('bulk validation once', () => {
  it('cuts frozen chunks of a valid list and passes such a chunk on as it is', () => {
    const list = Array.from({ length: 25 }, (_, i) => order(i));
    const chunks = bulkChunks(list);
    expect(chunks.map((c) => c.length)).toEqual([20, 5]);
    for (const c of chunks) {
      expect(Object.isFrozen(c)).toBe(true);
      expect(isValidatedChunk(c)).toBe(true);
      expect(bulkChunks(c)[0]).toBe(c);
    }
    expect(isValidatedChunk(list)).toBe(false);
  });

  it('validates a list it did not cut, a copy of a chunk included', () => {
    const bad = [order(1), { ...order(2), amount: dec('0') }];
    expect(() => bulkChunks(bad)).toThrow(InvalidRequestError);
    expect(() => bulkChunks(bad)).toThrow('orders[1].amount');
    const [chunk] = bulkChunks([order(1), order(1)].map((o, i) => ({ ...o, clientOrderId: `d-${i}` })));
    const copy = [...(chunk ?? []), { ...order(3), clientOrderId: 'd-0' }];
    expect(isValidatedChunk(copy)).toBe(false);
    expect(() => bulkChunks(copy)).toThrow('duplicate within the request');
  });

  it('the in-process API refuses an invalid list handed to it directly and places a validated chunk', async () => {
    const clock = new ManualClock(1_700_000_040_000);
    const venue = new Venue(clock, 7, defaultMarkets().map((m) => ({ ...m, volatility: '0' })), 60_000);
    const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000' } });
    const api = inProcessApi(venue, account);
    await expect(api.bulkLimitOrders([{ ...order(1), price: dec('-1') }])).rejects.toThrow('orders[0].price');
    expect(api.received()).toBe(0);
    const [chunk] = bulkChunks([order(1), order(2)]);
    const items = await api.bulkLimitOrders(chunk ?? []);
    expect(items.map((r) => r.status)).toEqual(['placed', 'placed']);
    expect(api.received()).toBe(1);
  });
});
