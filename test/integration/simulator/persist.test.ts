/**
 * The simulator with a state file (option `stateFile`, the persistent paper account): a restart
 * continues every part of the venue exactly (balances with all their digits, open orders that
 * still match, positions, OTO/OCO brackets, flex and its accrual, the credit line, deal history,
 * price paths, clock and id sequences), a continued venue moves on exactly as one that never
 * stopped, a reply is on disk before it is sent, and a damaged file is refused naming the field.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../../src/simulator/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { signedPost, type SimReply } from '../../support/sim-harness.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0.0001', pricePath: 'BTC' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0.0001', pricePath: 'BTC' },
];
const K = { apiKey: 'k', apiSecret: 's' };
const H = { apiKey: 'h', apiSecret: 's2' };
const PLAN_A = '11111111-1111-4111-a111-111111111111';
const PLAN_B = '22222222-2222-4222-a222-222222222222';

/** Both accounts as configured; each start of a venue gets the same options (as the paper daemon does). */
function options(stateFile: string | undefined, clock: ManualClock): SimulatorOptions {
  return {
    seed: 9,
    clock,
    markets: MARKETS,
    stepMs: 1000,
    ...(stateFile === undefined ? {} : { stateFile }),
    accounts: [
      {
        ...K,
        balances: { USDT: '10000.123456789012345678', BTC: '0.000000000000000001' },
        flex: [
          { planId: PLAN_A, investmentId: 'inv-a', currency: 'USDT', amount: '500', dailyRate: '0.001' },
          { planId: PLAN_B, investmentId: 'inv-b', currency: 'USDT', amount: '250', dailyRate: '0.002' },
        ],
        loan: { asset: 'USDT', amount: '20', collateralAsset: 'BTC', collateralAmount: '1' },
      },
      { ...H, hedgeMode: true, balances: { USDT: '5000' } },
    ],
  };
}

let nonce = 1_000;
function post(sim: SimulatorHandle, p: string, fields: Record<string, unknown> = {}, creds = K): Promise<SimReply> {
  return signedPost(sim.baseUrl, p, fields, creds, ++nonce);
}

const open: SimulatorHandle[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined);
});

async function start(stateFile: string | undefined, clock: ManualClock): Promise<SimulatorHandle> {
  const sim = await startSimulator(options(stateFile, clock));
  open.push(sim);
  return sim;
}

async function closeSim(sim: SimulatorHandle): Promise<void> {
  open.splice(open.indexOf(sim), 1);
  await sim.close();
}

/** Trading that touches every part of the state: resting and filled spot orders, a bracket that became an OCO, an OTO still resting, hedge positions, flex. */
async function trade(sim: SimulatorHandle, clock: ManualClock): Promise<void> {
  const ok = async (p: Promise<SimReply>): Promise<void> => {
    const r = await p;
    expect(r.status, r.text).toBeLessThan(300);
  };
  await ok(post(sim, '/api/v4/order/bulk', { orders: [
    { market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '90', clientOrderId: 'rest-buy' },
    { market: 'BTC_USDT', side: 'buy', amount: '0.05', price: '150', clientOrderId: 'taken' },
  ] }));
  await ok(post(sim, '/api/v4/order/collateral/limit', { market: 'BTC_PERP', side: 'buy', amount: '0.2', price: '200', stopLoss: '50', takeProfit: '300', clientOrderId: 'bracket-filled' }));
  await ok(post(sim, '/api/v4/order/collateral/limit', { market: 'BTC_PERP', side: 'buy', amount: '0.1', price: '60', stopLoss: '40', takeProfit: '80', clientOrderId: 'bracket-rests' }));
  await ok(post(sim, '/api/v4/order/collateral/limit', { market: 'BTC_PERP', side: 'sell', amount: '0.3', price: '50', positionSide: 'SHORT', clientOrderId: 'hedge-short' }, H));
  clock.advance(10_000); // ten walked steps
  sim.advance(5_000); // simulated time ahead of the clock
  await ok(post(sim, '/api/v4/main-account/smart-flex/investments/close', { plan: PLAN_B }));
  clock.advance(2 * 86_400_000); // two UTC midnights: flex earns twice, the walk jumps
  await ok(post(sim, '/api/v4/main-account/balance'));
}

function everything(sim: SimulatorHandle): unknown {
  return { truthK: sim.truth('k'), truthH: sim.truth('h'), brackets: sim.brackets('k'), prices: sim.prices() };
}

describe('simulator state file', () => {
  it('a restart continues every part of the venue, and it moves on exactly as a venue that never stopped', async () => {
    const file = path.join(tempDir('v4bot-persist-'), 'paper-venue.sqlite');
    const clock = new ManualClock(1_700_000_000_000);
    const refClock = new ManualClock(1_700_000_000_000);
    const first = await start(file, clock);
    expect(first.persistence).toEqual({ file, continued: false });
    const reference = await start(undefined, refClock);
    const savedNonce = nonce;
    await trade(first, clock);
    nonce = savedNonce;
    await trade(reference, refClock);
    const before = everything(first);
    expect(before).toEqual(everything(reference));
    const t = before as { truthK: { openOrders: unknown[]; positions: { amount: string }[]; flex: { ledger: unknown[] }; deals: { count: number } } };
    expect(t.truthK.openOrders.length).toBe(2);
    expect(t.truthK.deals.count).toBeGreaterThan(1);
    expect(t.truthK.flex.ledger.length).toBeGreaterThanOrEqual(5);
    expect(first.brackets('k').some((b) => b.ocoActive)).toBe(true);
    const historyBefore = (await post(first, '/api/v4/trade-account/executed-history', { limit: 100 })).json;
    const creditBefore = (await post(first, '/api/v4/credit-line/loans/info')).json;
    await closeSim(first);

    const second = await start(file, clock);
    expect(second.persistence).toEqual({ file, continued: true });
    expect(everything(second)).toEqual(before);
    expect(second.truth('k').balances['USDT']).toBe((before as { truthK: { balances: Record<string, string> } }).truthK.balances['USDT']);
    expect((await post(second, '/api/v4/trade-account/executed-history', { limit: 100 })).json).toEqual(historyBefore);
    expect((await post(second, '/api/v4/credit-line/loans/info')).json).toEqual(creditBefore);
    // The nonce high-water mark came back with the account: a nonce from before the restart is refused.
    const next = nonce;
    nonce = savedNonce + 5;
    expect((await post(second, '/api/v4/main-account/balance')).status).toBe(429);
    nonce = next;

    // The same future on both: steps, a day of flex, the resting buy reached and filled.
    clock.advance(30_000);
    refClock.advance(30_000);
    expect(everything(second)).toEqual(everything(reference));
    for (const [s, c] of [[second, clock], [reference, refClock]] as const) {
      s.setPrices({ BTC_USDT: '89', BTC_PERP: '89' });
      c.advance(86_400_000);
    }
    expect(everything(second)).toEqual(everything(reference));
    const restBuy = second.truth('k').orders.find((o) => o.clientOrderId === 'rest-buy');
    expect(restBuy?.status).toBe('FILLED');
  });

  it('a reply is on disk before it is sent: a copy of the files taken right after it holds the order', async () => {
    const dir = tempDir('v4bot-persist-');
    const file = path.join(dir, 'paper-venue.sqlite');
    const clock = new ManualClock(1_700_000_000_000);
    const s = await start(file, clock);
    const r = await post(s, '/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '90', clientOrderId: 'acked' }] });
    expect(r.status).toBe(200);
    // What a kill -9 at this instant leaves behind: the database and its WAL as they are on disk.
    const copy = path.join(dir, 'crash-copy.sqlite');
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const after = await start(copy, new ManualClock(clock.now()));
    expect(after.truth('k').openOrders.map((o) => o.clientOrderId)).toEqual(['acked']);
  });

  it('refuses a damaged file naming the record and the field, and a file another venue holds', async () => {
    const file = path.join(tempDir('v4bot-persist-'), 'paper-venue.sqlite');
    const clock = new ManualClock(1_700_000_000_000);
    const s = await start(file, clock);
    await expect(startSimulator(options(file, clock))).rejects.toThrow(/in use by another process/);
    await closeSim(s);
    const db = new Database(file);
    const row = db.prepare("SELECT json FROM accounts WHERE api_key = 'k'").get() as { json: string };
    const bad = JSON.parse(row.json) as { balances: Record<string, unknown> };
    bad.balances['USDT'] = 1e21;
    db.prepare("UPDATE accounts SET json = ? WHERE api_key = 'k'").run(JSON.stringify(bad));
    db.close();
    await expect(startSimulator(options(file, clock))).rejects.toThrow(/accounts\[0\]\.balances\.USDT: expected a decimal string, found 1e\+21/);
  });
});
