/**
 * What the chaos suite needs from the simulator: the admin routes of admin-scenarios.ts (several
 * prices at once, the brackets' lineage, cancelling OCO legs, settling an account) over HTTP, and
 * the standalone simulator's spot and perpetual markets on one price path.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { defaultMarkets, linkedMarkets, startSimulator, type Bracket, type SimulatorHandle } from '../../src/simulator/index.js';
import { ROOT } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';
import { startTestSim, type TestSim } from '../support/sim-harness.js';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function admin(sim: SimulatorHandle, method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${sim.baseUrl}/_sim/${route}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function brackets(sim: SimulatorHandle): Promise<Bracket[]> {
  return (await admin(sim, 'GET', 'brackets')).json['brackets'] as Bracket[];
}

/** A collateral buy of 0.01 BTC_PERP with its OTO: `price` above 60000 fills at once. */
async function collateral(s: TestSim, clientOrderId: string, price: string, stopLoss: string, takeProfit: string): Promise<number> {
  const r = await s.post('/api/v4/order/collateral/limit', { market: 'BTC_PERP', side: 'buy', amount: '0.01', price, stopLoss, takeProfit, clientOrderId });
  expect(r.status).toBe(200);
  return (r.json as { orderId: number }).orderId;
}

async function listed(s: TestSim): Promise<number> {
  const r = await s.post('/api/v4/orders/conditional', { market: 'BTC_PERP' });
  return (r.json as { total: number }).total;
}

/** |a − b| of two decimal price strings. */
const gapOf = (a: string | undefined, b: string | undefined): Decimal => new Decimal(a ?? '0').minus(b ?? '0').abs();

const perpPosition = (sim: SimulatorHandle): string | undefined => sim.truth().positions.find((p) => p.market === 'BTC_PERP')?.amount;

describe('simulator admin routes for chaos tests', () => {
  it('lists a filled parent with its OCO legs, and cancels the legs on request', async () => {
    t = await startTestSim({ admin: true });
    const parent = await collateral(t, 'p1', '60010', '59000', '61000');
    const [b] = await brackets(t.sim);
    expect(b).toMatchObject({ parentOrderId: parent, parentClientOrderId: 'p1', otoActive: false, ocoActive: true });
    expect([b?.stopLoss?.status, b?.takeProfit?.status]).toEqual(['NEW', 'NEW']);
    expect(await listed(t)).toBe(1);

    expect((await admin(t.sim, 'POST', 'oco/cancel', { ocoId: b?.ocoId })).status).toBe(200);
    expect(await listed(t)).toBe(0);
    const [after] = await brackets(t.sim);
    expect([after?.ocoActive, after?.stopLoss?.status, after?.takeProfit?.status]).toEqual([false, 'CANCELLED', 'CANCELLED']);
    expect(perpPosition(t.sim)).toBe('0.01'); // the position stays: only its protection went
    expect((await admin(t.sim, 'POST', 'oco/cancel', { ocoId: b?.ocoId })).status).toBe(400);
  });

  it('shows which leg executed and when', async () => {
    t = await startTestSim({ admin: true });
    await collateral(t, 'p2', '60010', '59000', '61000');
    expect((await admin(t.sim, 'POST', 'prices', { prices: { BTC_PERP: '61500' } })).status).toBe(200);
    const [b] = await brackets(t.sim);
    expect([b?.ocoActive, b?.takeProfit?.status, b?.stopLoss?.status]).toEqual([false, 'FILLED', 'CANCELLED']);
    expect(b?.takeProfit?.mtimeMs).toBe(t.sim.truth().time);
    expect(perpPosition(t.sim)).toBe('0');
  });

  it('settles an account: open orders and protective records cancelled, positions closed on request', async () => {
    t = await startTestSim({ admin: true });
    const spot = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '59000', clientOrderId: 's1' }] });
    expect(spot.status).toBe(200);
    const resting = await collateral(t, 'p3', '59000', '58000', '61000');
    await collateral(t, 'p4', '60010', '59000', '61000');
    const settled = await admin(t.sim, 'POST', 'settle', {});
    expect(settled.status).toBe(200);
    expect(settled.json['cancelledOrders']).toContain(resting);
    expect((settled.json['cancelledOrders'] as number[]).length).toBe(2);
    expect((settled.json['cancelledConditionals'] as number[]).length).toBe(1); // p4's OCO (p3's OTO ended with its parent)
    expect(t.sim.truth().openOrders).toEqual([]);
    expect(await listed(t)).toBe(0);
    expect(perpPosition(t.sim)).toBe('0.01');

    const flat = await admin(t.sim, 'POST', 'settle', { flatten: true });
    expect(flat.json['flattened']).toMatchObject([{ market: 'BTC_PERP', amount: '0.01' }]);
    expect(perpPosition(t.sim)).toBe('0');
    expect(String(t.sim.truth().deals.list.at(-1)?.['clientOrderId'])).toMatch(/^sim-settle-/);
  });

  it('sets several prices in one request, or none when one is refused', async () => {
    t = await startTestSim({ admin: true });
    expect((await admin(t.sim, 'POST', 'prices', { prices: { BTC_USDT: '61000.01', BTC_PERP: '61000' } })).status).toBe(200);
    expect(t.sim.prices().prices).toMatchObject({ BTC_USDT: '61000.01', BTC_PERP: '61000' });
    expect((await admin(t.sim, 'POST', 'prices', { prices: { BTC_USDT: '62000', BTC_PERP: '1e3' } })).status).toBe(400);
    expect((await admin(t.sim, 'POST', 'prices', { prices: { BTC_USDT: '62000', NOPE_USDT: '1' } })).status).toBe(400);
    expect(t.sim.prices().prices['BTC_USDT']).toBe('61000.01');
  });

  it('moves a spot market and its perpetual on one path when linked', async () => {
    const gap = async (link: boolean): Promise<Decimal> => {
      const markets = link ? linkedMarkets(defaultMarkets()) : defaultMarkets();
      const sim = await startSimulator({ clock: new ManualClock(1_700_000_000_000), seed: 5, markets });
      sim.step(200);
      const p = sim.prices().prices;
      await sim.close();
      return gapOf(p['BTC_USDT'], p['BTC_PERP']);
    };
    expect((await gap(true)).lt(5)).toBe(true); // tick rounding only (0.01 vs 0.1)
    expect((await gap(false)).gt(50)).toBe(true);
  });

  it('the standalone simulator (npm run sim) links each spot market to its perpetual', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', '--port', '0', '--admin', '--speed', '100'], {
      cwd: ROOT,
      env: { ...process.env, SIM_API_KEY: 'K', SIM_API_SECRET: 'S' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const url = await eventually(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 'sim listening', { timeoutMs: 20_000, everyMs: 50 });
      const prices = await eventually(async () => {
        const p = ((await (await fetch(`${url}/_sim/markets`)).json()) as { prices: Record<string, string> }).prices;
        return p['BTC_PERP'] !== '60000' && p['ETH_PERP'] !== '3000' ? p : undefined;
      }, 'prices moved', { timeoutMs: 20_000, everyMs: 100 });
      expect(gapOf(prices['BTC_USDT'], prices['BTC_PERP']).lt(5)).toBe(true);
      expect(gapOf(prices['ETH_USDT'], prices['ETH_PERP']).lt('0.5')).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
