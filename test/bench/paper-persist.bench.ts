/**
 * Cost of the persistent paper account (docs/paper-account.md): latency of one signed request
 * over loopback HTTP, in memory and with a state file (one SQLite transaction, synchronous FULL,
 * committed before the reply), for a read that changes nothing (main balance), a placement that
 * rests and its cancel, and a placement that fills (order + deal + balances written); then the
 * same after the account holds 5 000 deals and 5 000 finished orders, to show the cost follows
 * what a request changed, not the size of the account.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../../src/core/clock.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { signedPost } from '../support/sim-harness.js';

const N = 300;
const HISTORY = 5000;

function poster(sim: SimulatorHandle): (path: string, fields: Record<string, unknown>) => Promise<void> {
  let nonce = 0;
  return async (p, fields) => {
    const r = await signedPost(sim.baseUrl, p, fields, sim.defaultAccount, ++nonce);
    if (r.status >= 300) throw new Error(`${p}: ${r.status} ${r.text}`);
  };
}

interface Row {
  read: number;
  restCancel: number;
  fill: number;
}

async function mean(n: number, fn: (i: number) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t0) / n;
}

async function measure(post: (p: string, f: Record<string, unknown>) => Promise<void>, tag: string): Promise<Row> {
  const read = await mean(N, () => post('/api/v4/main-account/balance', {}));
  const restCancel = await mean(N, async (i) => {
    await post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '30000', clientOrderId: `${tag}r${i}` }] });
    await post('/api/v4/order/cancel', { market: 'BTC_USDT', clientOrderId: `${tag}r${i}` });
  });
  const fill = await mean(N, (i) => post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: i % 2 === 0 ? 'buy' : 'sell', amount: '0.001', price: i % 2 === 0 ? '90000' : '1000' }] }));
  return { read, restCancel: restCancel / 2, fill };
}

async function run(stateFile: string | undefined): Promise<{ small: Row; large: Row }> {
  const sim = await startSimulator({ clock: new ManualClock(1_700_000_000_000), seed: 3, defaultBalances: { USDT: '100000000', BTC: '1000' }, ...(stateFile === undefined ? {} : { stateFile }) });
  try {
    const post = poster(sim);
    await measure(post, 'w'); // warm-up: JIT, sockets, SQLite page cache
    const small = await measure(post, 'a');
    for (let i = 0; i < HISTORY / 20; i++) {
      const orders = Array.from({ length: 20 }, (_, j) => ({ market: 'BTC_USDT', side: j % 2 === 0 ? 'buy' : 'sell', amount: '0.001', price: j % 2 === 0 ? '90000' : '1000' }));
      await post('/api/v4/order/bulk', { orders });
    }
    const large = await measure(post, 'b');
    return { small, large };
  } finally {
    await sim.close();
  }
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-paper-persist-'));
  try {
    const memory = await run(undefined);
    const file = await run(path.join(dir, 'paper-venue.sqlite'));
    const f = (ms: number): string => ms.toFixed(3).padStart(8);
    console.log(`mean ms per signed request over loopback HTTP, ${N} each (rest+cancel: per request)`);
    console.log('account                         request         in memory   state file   persistence');
    for (const [label, key] of [['read (balance)', 'read'], ['place resting / cancel', 'restCancel'], ['place that fills', 'fill']] as const) {
      for (const size of ['small', 'large'] as const) {
        const m = memory[size][key];
        const s = file[size][key];
        const acct = size === 'small' ? 'new' : `+${HISTORY} deals/orders`;
        console.log(`${acct.padEnd(31)} ${label.padEnd(24)} ${f(m)}   ${f(s)}   ${f(s - m)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
