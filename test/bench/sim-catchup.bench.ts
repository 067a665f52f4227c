/**
 * Simulator catch-up: latency of one signed request (main balance) over loopback HTTP after the
 * venue sat idle for a given gap, with 1 000 resting orders on one market and the default four
 * markets. Gaps up to `maxWalkSteps` steps are walked step by step; longer ones are one jump, so
 * the figure must stay flat from the walk limit on, however long the idle time.
 */
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../../src/core/clock.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { signedPost } from '../support/sim-harness.js';

const RESTING = 1000;
const RUNS = 7;
const HOUR = 3_600_000;

function poster(sim: SimulatorHandle): (path: string, fields: Record<string, unknown>) => Promise<number> {
  let nonce = 0;
  return async (path, fields) => {
    return (await signedPost(sim.baseUrl, path, fields, sim.defaultAccount, ++nonce)).status;
  };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export default async function run(): Promise<void> {
  const clock = new ManualClock(1_700_000_000_000);
  const sim = await startSimulator({ clock, seed: 3, defaultBalances: { USDT: '100000000', BTC: '1000', ETH: '10000' } });
  const post = poster(sim);
  // Resting buys far below the price: every step checks them, none fills, the count stays.
  for (let i = 0; i < RESTING / 20; i++) {
    const orders = Array.from({ length: 20 }, (_, j) => ({ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: String(30000 + i * 20 + j) }));
    await post('/api/v4/order/bulk', { orders });
  }
  const gaps: [string, number][] = [['none', 0], ['1 step', 1000], ['60 steps (walk limit)', 60_000], ['61 steps (jump)', 61_000], ['6 h', 6 * HOUR], ['7 days', 168 * HOUR]];
  console.log(`one signed request after an idle gap, ${RESTING} resting orders, 4 markets, stepMs 1000, ${RUNS} runs each`);
  console.log('| idle gap | p50 ms | max ms |');
  console.log('|---|---|---|');
  for (const [label, gapMs] of gaps) {
    const lat: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      clock.advance(gapMs);
      const t = performance.now();
      if ((await post('/api/v4/main-account/balance', {})) !== 200) throw new Error('bench: request failed');
      lat.push(performance.now() - t);
    }
    lat.sort((a, b) => a - b);
    console.log(`| ${label} | ${pct(lat, 50).toFixed(1)} | ${(lat.at(-1) ?? NaN).toFixed(1)} |`);
  }
  if (sim.truth().openOrders.length !== RESTING) throw new Error('bench: resting orders changed');
  await sim.close();
}
