/**
 * Reconciliation throughput (`npm run bench -- reconcile`): the simulator holds 100 000 deals
 * (1 000 pages of 100); we measure
 *   1. fetch only, and the pure kernel + store applying the fetched deals to a fresh store in
 *      one batch (one transaction);
 *   2. the whole scan over HTTP on a fresh store in a fresh process (test/bench/reconcile-child.ts)
 *      two ways: `Reconciler.scanOnce()` (pages staged in a SQLite TEMP table, applied oldest
 *      first in chunks of 5 000) and every page held in memory then applied at once, with each
 *      process's peak RSS. The simulator runs in its own child process (`src/cli/sim.ts`), so the
 *      RSS is the engine's own. `BENCH_DEALS` overrides the number of deals.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import type { LimitOrderRequest } from '../../src/model/venue-orders.js';
import { FillApplier } from '../../src/engine/fill-applier.js';
import { OrderJournal } from '../../src/engine/order-journal.js';
import { silentLogger } from '../../src/observability/logger.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/index.js';
import { fetchAllFills } from './fetch-all.js';

const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} deals/s`;

export default async function bench(): Promise<void> {
  const total = Number.parseInt(process.env['BENCH_DEALS'] ?? '100000', 10);
  const clock = new SystemClock();
  const keys = { apiKey: 'benchkey', apiSecret: 'benchsecret' };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('src/cli/sim.ts'), '--port', '0', '--api-key', keys.apiKey, '--api-secret', keys.apiSecret, '--admin', '--seed', '3', '--balances', 'USDT=10000000,BTC=100'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  const sim = { baseUrl, defaultAccount: keys } as unknown as SimulatorHandle;
  const priceOf = async (market: string) => new Decimal(((await (await fetch(`${baseUrl}/_sim/markets`)).json()) as { prices: Record<string, string> }).prices[market] as string);
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-'));
    dirs.push(d);
    return d;
  };
  try {
    // Fill the venue: crossing orders fill at once, one deal each; alternate sides keep balances.
    const maker = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
    const price = await priceOf('BTC_USDT');
    const t0 = performance.now();
    for (let i = 0; i < total; i += 20) {
      const chunk: LimitOrderRequest[] = Array.from({ length: Math.min(20, total - i) }, (_, j) => {
        const side = (i + j) % 2 === 0 ? 'buy' : 'sell';
        return { market: 'BTC_USDT', side, amount: new Decimal('0.0001'), price: price.mul(side === 'buy' ? '1.01' : '0.99').toDecimalPlaces(2), clientOrderId: `b-${(i + j).toString(36)}` };
      });
      const res = await maker.bulkLimitOrders(chunk);
      if (res.some((r) => r.status !== 'placed')) throw new Error('bench setup: an order was not placed');
    }
    await maker.close();
    await new Promise((r) => setTimeout(r, 1100)); // the scan anchor is whole seconds: let the last deal's second pass
    const made = total; // every crossing order fills at once in one deal (checked below against both scans)
    const mb = () => `${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`;
    console.log(`setup: ${made.toLocaleString('en-US')} deals placed in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS: ${mb()}`);

    // 1. fetch all pages (HTTP only), then kernel + store on a fresh store, in this process.
    const fetcher = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
    const tf = performance.now();
    const scan = await fetchAllFills(fetcher, clock.now());
    const fetchMs = performance.now() - tf;
    await fetcher.close();
    const logger = silentLogger();
    const store = openStore({ dataDir: dir(), clock, logger });
    const applier = new FillApplier(store, clock, logger, new OrderJournal(store, clock));
    const tk = performance.now();
    const summary = applier.apply(scan.deals);
    const kernelMs = performance.now() - tk;
    store.close();

    // 2. the whole scan, staged (the reconciler) and in memory, each in a fresh process so its
    //    peak RSS is its own.
    const child = (mode: 'staged' | 'memory') =>
      new Promise<{ newFills: number; pages: number; ms: number; baselineMb: number; peakMb: number }>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/bench/reconcile-child.ts'), mode, sim.baseUrl, keys.apiKey, keys.apiSecret], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        p.stdout.on('data', (b: Buffer) => (out += b.toString()));
        p.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) as string)) : reject(new Error(`${mode} child exited ${code}`))));
      });
    const staged = await child('staged');
    const inMemory = await child('memory');

    console.log(`| measure | deals | pages | time | throughput | peak RSS (process baseline) |`);
    console.log(`|---|---|---|---|---|---|`);
    console.log(`| fetch only (HTTP, newest-first pages of 100) | ${scan.deals.length} | ${scan.pages} | ${fetchMs.toFixed(0)} ms | ${rate(scan.deals.length, fetchMs)} | - |`);
    console.log(`| pure kernel + store (one batch, one transaction) | ${summary.newFills} | - | ${kernelMs.toFixed(0)} ms | ${rate(summary.newFills, kernelMs)} | - |`);
    console.log(`| whole scan, staged in SQLite (Reconciler.scanOnce) | ${staged.newFills} | ${staged.pages} | ${staged.ms} ms | ${rate(staged.newFills, staged.ms)} | ${staged.peakMb} MB (${staged.baselineMb} MB) |`);
    console.log(`| whole scan, held in memory, one apply | ${inMemory.newFills} | ${inMemory.pages} | ${inMemory.ms} ms | ${rate(inMemory.newFills, inMemory.ms)} | ${inMemory.peakMb} MB (${inMemory.baselineMb} MB) |`);
    console.log(`peak RSS above baseline, staged / in memory: ${staged.peakMb - staged.baselineMb} MB / ${inMemory.peakMb - inMemory.baselineMb} MB`);
    for (const n of [summary.newFills, staged.newFills, inMemory.newFills]) {
      if (n !== made) throw new Error(`deal count mismatch: venue ${made}, got ${n}`);
    }
  } finally {
    child.kill('SIGTERM');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
