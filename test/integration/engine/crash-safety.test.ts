import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/eventually.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { engineFor, storeDeals, truthDeals, truthOrderCounts } from '../../support/engine-stack.js';

const CHILD = path.resolve('test/support/crash-child.ts');
const RESTARTS = 50;

/** Runs the child until READY, lets it trade for a random while, kills it with SIGKILL. */
async function runAndKill(env: NodeJS.ProcessEnv, beforeReady: boolean, delayMs: number): Promise<boolean> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  // 'close', not 'exit': the stderr quoted in the errors below must be complete.
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
  const ready = new Promise<boolean>((resolve) => {
    child.stdout.on('data', (b: Buffer) => {
      if (b.toString().includes('READY')) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  if (!beforeReady) {
    const ok = await ready;
    if (!ok) throw new Error(`crash child died on its own: ${stderr.slice(-2000)}`);
  }
  // A real wait on purpose: the kill lands at a random moment of the child's real-time work.
  await new Promise((r) => setTimeout(r, delayMs));
  const alive = child.exitCode === null;
  child.kill('SIGKILL');
  await exited;
  if (!alive) throw new Error(`crash child exited before the kill: ${stderr.slice(-2000)}`);
  return alive;
}

describe('crash safety', () => {
  it(`SIGKILL at random points, restarted ${RESTARTS} times: 0 lost or double-counted fills, 0 duplicate orders`, async () => {
    const sim = closeAfterTest(await startSimulator({ clock: new SystemClock(), admin: true, seed: 11, stepMs: 20 }));
    const dir = tempDir();
    const env = { SIM_URL: sim.baseUrl, API_KEY: sim.defaultAccount.apiKey, API_SECRET: sim.defaultAccount.apiSecret, DATA_DIR: dir };
    let rng = 12345;
    const rand = () => ((rng = (rng * 1_103_515_245 + 12_345) % 2_147_483_648), rng / 2_147_483_648);
    for (let i = 0; i < RESTARTS; i++) {
      const beforeReady = i % 5 === 4; // some kills land in the start-up reconciliation
      await runAndKill({ ...env, SEED: String(1000 + i) }, beforeReady, beforeReady ? 300 + rand() * 400 : rand() * 400);
    }
    // A final clean start settles everything, like the daemon's start-up.
    const e = engineFor(dir, sim, new SystemClock(), { resolve: { graceMs: 300, minLooks: 2 } });
    // The resolver's grace period runs on real time here (the children and the venue do): poll.
    const settle = (): Promise<true> =>
      eventually(
        async () => {
          await e.reconciler.reconcileOnce();
          return e.store.orders.listByState(['UNKNOWN', 'PENDING', 'PENDING_CANCEL']).length === 0;
        },
        'every unresolved order to settle',
        { timeoutMs: 20_000, everyMs: 100 },
      );
    try {
      await settle();
      // The simulator keeps trading in real time: resting orders would go on filling between the
      // last scan and the truth snapshot. Cancel everything the journal knows is live, then the
      // venue must have nothing open (an order the journal did not know would still be open).
      for (let round = 0; round < 5 && e.store.orders.listByState(['OPEN', 'PARTIALLY_FILLED']).length > 0; round++) {
        await e.orders.cancelAll('crash');
        await settle();
      }
      expect(sim.truth().openOrders.map((o) => o.clientOrderId)).toEqual([]);
      // A real wait on purpose: the venue runs on the system clock and the history's endDate
      // anchor is whole seconds, so the last deal is only inside a scan once its second is over.
      await new Promise((r) => setTimeout(r, 1100));
      await e.reconciler.reconcileOnce();
      expect(e.store.orders.listByState(['UNKNOWN', 'PENDING', 'PENDING_CANCEL'])).toEqual([]);
      const truth = sim.truth();
      const counts = truthOrderCounts(truth);
      expect(counts.size).toBeGreaterThan(50); // the children really traded
      expect([...counts.values()].filter((n) => n > 1)).toEqual([]); // 0 duplicate orders
      const ours = new Set(e.store.orders.all().map((o) => o.clientOrderId));
      for (const cid of counts.keys()) expect(ours.has(cid)).toBe(true); // nothing sent without a journal row
      for (const o of e.store.orders.listByState(['REJECTED'])) expect(counts.has(o.clientOrderId)).toBe(false);
      const fills = e.store.fills.all();
      expect(fills.length).toBeGreaterThan(20);
      expect(storeDeals(fills)).toEqual(truthDeals(truth)); // 0 lost, 0 double-counted
      for (const o of truth.orders) {
        if (o.status === 'FILLED') expect(e.store.orders.get(o.clientOrderId)?.state).toBe('FILLED');
      }
    } finally {
      await e.close();
    }
  }, 180_000);
});
