import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const MARKETS = [{ name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volatility: '0' }];
const ORDER = { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '90', clientOrderId: 'f1' }] };

let sims: TestSim[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function start(opts: Parameters<typeof startTestSim>[0]): Promise<TestSim> {
  const t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }], ...opts });
  sims.push(t);
  return t;
}
const K = { apiKey: 'k', apiSecret: 's' };
const BULK = '/api/v4/order/bulk';

describe('fault injection', () => {
  it('5xx and 429 answer before applying', async () => {
    const t = await start({ faults: { [BULK]: { error5xx: 1 } } });
    const r = await t.post(BULK, ORDER, K);
    expect(r.status).toBe(500);
    expect(t.sim.truth('k').orders).toHaveLength(0);
    t.sim.setFaults({ [BULK]: { rate429: 1 } });
    const r2 = await t.post(BULK, ORDER, K);
    expect([r2.status, r2.json]).toEqual([429, undefined]);
    expect(t.sim.truth('k').orders).toHaveLength(0);
  });

  it('reset after applying: the client sees a network error, the order exists', async () => {
    const t = await start({ faults: { [BULK]: { dropAfterApply: { rate: 1, mode: 'reset' } } } });
    await expect(t.post(BULK, ORDER, K)).rejects.toThrow();
    expect(t.sim.truth('k').orders.map((o) => o.clientOrderId)).toEqual(['f1']);
  });

  it('hang after applying: no answer until the client gives up, the order exists', async () => {
    const t = await start({ faults: { [BULK]: { dropAfterApply: { rate: 1, mode: 'hang' } } } });
    const ac = new AbortController();
    const pending = t.post(BULK, ORDER, K);
    // the request is applied before the (never sent) answer: poll for it
    await eventually(() => t.sim.truth('k').orders.length > 0, 'the order applied');
    expect(t.sim.truth('k').orders).toHaveLength(1);
    ac.abort();
    await t.close(); // destroys the hung socket
    sims = [];
    await expect(pending).rejects.toThrow();
  });

  it('malformed: 200 with a body that is not the JSON answer, after applying', async () => {
    const t = await start({ faults: { [BULK]: { malformed: 1 } } });
    const r = await t.post(BULK, ORDER, K);
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    expect(t.sim.truth('k').orders).toHaveLength(1);
  });

  it('latency waits on the simulator clock', async () => {
    const t = await start({ faults: { '*': { latencyMs: 5000 } } });
    let done = false;
    const p = t.get('/api/v4/public/ping').then((r) => {
      done = true;
      return r;
    });
    // The request is in: the simulator waits on its (manual) clock, and nothing answers until it moves.
    await eventually(() => t.clock.pendingCount > 0, 'the latency timer');
    expect(done).toBe(false);
    await t.clock.advanceAsync(5000, 1000);
    expect((await p).status).toBe(200);
  });

  it('is reproducible from the seed', async () => {
    const pattern = async (seed: number): Promise<number[]> => {
      const t = await start({ seed, faults: { '/api/v4/public/ping': { error5xx: 0.3, rate429: 0.3 } } });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await t.get('/api/v4/public/ping')).status);
      return out;
    };
    const a = await pattern(7);
    const b = await pattern(7);
    expect(a).toEqual(b);
    expect(new Set(a)).toEqual(new Set([200, 429, 500]));
  });
});

describe('rate limits', () => {
  it('answers a non-JSON 429 over the pool limit, per pool, sliding on the clock', async () => {
    const t = await start({ rateLimits: { public: { limit: 3, windowMs: 10_000 } } });
    for (let i = 0; i < 3; i++) expect((await t.get('/api/v4/public/ping')).status).toBe(200);
    const limited = await t.get('/api/v4/public/ping');
    expect(limited.status).toBe(429);
    expect(limited.json).toBeUndefined();
    expect(limited.contentType).not.toContain('json');
    expect((await t.post('/api/v4/main-account/balance', {}, K)).status).toBe(200); // other pool
    t.clock.advance(10_000);
    expect((await t.get('/api/v4/public/ping')).status).toBe(200);
  });
});
