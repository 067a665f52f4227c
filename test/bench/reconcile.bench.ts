/**
 * Reconciliation throughput (`npm run bench -- reconcile`): the simulator holds 100 000 deals
 * (1 000 pages of 100); we measure
 *   1. the pure kernel + store: applying the fetched deals to a fresh store (one transaction),
 *   2. the whole scan over HTTP: `Reconciler.scanOnce()` on a fresh store (fetch 1 000 pages,
 *      de-duplicate, apply, move the checkpoint),
 * and the peak RSS of the process. `BENCH_DEALS` overrides the number of deals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { createApiClient } from '../../src/exchange/client.js';
import type { LimitOrderRequest } from '../../src/exchange/gateway.js';
import { FillApplier } from '../../src/engine/fill-applier.js';
import { scanHistory } from '../../src/engine/kernels/history-scan.js';
import { silentLogger } from '../../src/observability/logger.js';
import { startSimulator } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/index.js';
import { engineFor } from '../support/engine-stack.js';

const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} deals/s`;

export default async function bench(): Promise<void> {
  const total = Number.parseInt(process.env['BENCH_DEALS'] ?? '100000', 10);
  const clock = new ManualClock(1_700_000_000_000);
  const sim = await startSimulator({ clock, seed: 3, admin: true, defaultBalances: { USDT: '10000000', BTC: '100' } });
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-'));
    dirs.push(d);
    return d;
  };
  try {
    // Fill the venue: crossing orders fill at once, one deal each; alternate sides keep balances.
    const maker = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
    const price = new Decimal(sim.prices().prices['BTC_USDT'] as string);
    const t0 = performance.now();
    for (let i = 0; i < total; i += 20) {
      const chunk: LimitOrderRequest[] = Array.from({ length: Math.min(20, total - i) }, (_, j) => {
        const side = (i + j) % 2 === 0 ? 'buy' : 'sell';
        return { market: 'BTC_USDT', side, amount: new Decimal('0.0001'), price: price.mul(side === 'buy' ? '1.01' : '0.99').toDecimalPlaces(2), clientOrderId: `b-${(i + j).toString(36)}` };
      });
      await maker.bulkLimitOrders(chunk);
      if (i % 2000 === 0) clock.advance(1000); // spread deal times over ~1.4 h
    }
    await maker.close();
    clock.advance(2000);
    const made = sim.truth().deals.count;
    const mb = () => `${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`;
    console.log(`setup: ${made.toLocaleString('en-US')} deals placed in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS with the simulator's state: ${mb()}`);

    // 1. fetch all pages (HTTP only), then kernel + store on a fresh store.
    const fetcher = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
    const tf = performance.now();
    const scan = await scanHistory((q) => fetcher.executedHistory(q), { endDate: Math.floor(clock.now() / 1000), pageSize: 100 });
    const fetchMs = performance.now() - tf;
    console.log(`RSS after fetching every page into memory: ${mb()}`);
    await fetcher.close();
    const logger = silentLogger();
    const store = openStore({ dataDir: dir(), clock, logger });
    const applier = new FillApplier(store, clock, logger);
    const tk = performance.now();
    const summary = applier.apply(scan.deals);
    const kernelMs = performance.now() - tk;
    console.log(`RSS after applying them: ${mb()}`);
    store.close();

    // 2. the whole scan over HTTP through the reconciler.
    const e = engineFor(dir(), sim, clock);
    const ts = performance.now();
    const whole = await e.reconciler.scanOnce();
    const wholeMs = performance.now() - ts;
    await e.close();

    const rssMb = (process.resourceUsage().maxRSS / 1024).toFixed(0);
    console.log(`| measure | deals | pages | time | throughput |`);
    console.log(`|---|---|---|---|---|`);
    console.log(`| fetch only (HTTP, newest-first pages of 100) | ${scan.deals.length} | ${scan.pages} | ${fetchMs.toFixed(0)} ms | ${rate(scan.deals.length, fetchMs)} |`);
    console.log(`| pure kernel + store (one transaction) | ${summary.newFills} | - | ${kernelMs.toFixed(0)} ms | ${rate(summary.newFills, kernelMs)} |`);
    console.log(`| whole scan over HTTP (Reconciler.scanOnce) | ${whole.newFills} | ${whole.pages} | ${wholeMs.toFixed(0)} ms | ${rate(whole.newFills, wholeMs)} |`);
    console.log(`peak RSS: ${rssMb} MB`);
    if (summary.newFills !== made || whole.newFills !== made) throw new Error(`deal count mismatch: venue ${made}, kernel ${summary.newFills}, scan ${whole.newFills}`);
  } finally {
    await sim.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
