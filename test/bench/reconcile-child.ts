/**
 * One measured scan in its own process, so its peak RSS is its own (see reconcile.bench.ts).
 *   node --import tsx test/bench/reconcile-child.ts staged|memory BASE_URL API_KEY API_SECRET
 * staged: `Reconciler.scanOnce()` (pages staged in SQLite, applied oldest first in chunks).
 * memory: every page fetched into memory, then one `FillApplier.apply` of all deals.
 * Prints one JSON line: {mode, newFills, pages, ms, baselineMb, peakMb}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SystemClock } from '../../src/core/clock.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import { FillApplier } from '../../src/engine/fill-applier.js';
import { OrderJournal } from '../../src/engine/order-journal.js';
import { silentLogger } from '../../src/observability/logger.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/index.js';
import { engineFor } from '../support/engine-stack.js';
import { fetchAllFills } from './fetch-all.js';

const [mode, baseUrl, apiKey, apiSecret] = process.argv.slice(2) as [string, string, string, string];
const clock = new SystemClock();
const dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-'));
const baselineMb = Math.round(process.memoryUsage().rss / 1048576);
try {
  const t0 = performance.now();
  let newFills: number;
  let pages: number;
  if (mode === 'staged') {
    const e = engineFor(dir, { baseUrl, defaultAccount: { apiKey, apiSecret } } as unknown as SimulatorHandle, clock);
    const r = await e.reconciler.scanOnce();
    await e.close();
    ({ newFills, pages } = r);
  } else {
    const client = createApiClient({ baseUrl, apiKey, apiSecret, clock });
    const scan = await fetchAllFills(client, clock.now());
    await client.close();
    const logger = silentLogger();
    const store = openStore({ dataDir: dir, clock, logger });
    newFills = new FillApplier(store, clock, logger, new OrderJournal(store, clock)).apply(scan.deals).newFills;
    pages = scan.pages;
    store.close();
  }
  const ms = performance.now() - t0;
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify({ mode, newFills, pages, ms: Math.round(ms), baselineMb, peakMb }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
