/**
 * Child process of the crash-safety test: trades against the simulator at SIM_URL with the store
 * in DATA_DIR until it is killed (SIGKILL, at a random point). Start-up runs the reconciliation
 * first, like the daemon, then prints READY and trades: random bulk placements (some cross at
 * once), random cancels, periodic reconciliation. Run with `node --import tsx`.
 */
import { SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { engineFor } from './engine-stack.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';

const env = (k: string): string => {
  const v = process.env[k];
  if (v === undefined) throw new Error(`missing ${k}`);
  return v;
};
const baseUrl = env('SIM_URL');
let seed = Number.parseInt(env('SEED'), 10);
const rand = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

async function prices(): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/_sim/markets`);
  return ((await res.json()) as { prices: Record<string, string> }).prices;
}

const sim = { baseUrl, defaultAccount: { apiKey: env('API_KEY'), apiSecret: env('API_SECRET') } } as unknown as SimulatorHandle;
const e = engineFor(env('DATA_DIR'), sim, new SystemClock(), { resolve: { graceMs: 300, minLooks: 2 }, responseMs: 2000 });
await e.reconciler.reconcileOnce();
process.stdout.write('READY\n');
for (let i = 0; ; i++) {
  const p = await prices();
  const market = rand() < 0.5 ? 'BTC_USDT' : 'ETH_USDT';
  const price = new Decimal(p[market] as string);
  const n = 1 + Math.floor(rand() * 6);
  const specs = Array.from({ length: n }, () => {
    const side = rand() < 0.5 ? ('buy' as const) : ('sell' as const);
    const cross = rand() < 0.4;
    const f = new Decimal(cross ? 1.01 : 0.997 + rand() * 0.006);
    const px = (side === 'buy' ? price.mul(cross ? f : f) : price.mul(cross ? new Decimal(2).minus(f) : f)).toDecimalPlaces(2);
    return { market, side, amount: new Decimal(market === 'BTC_USDT' ? '0.0002' : '0.004'), price: px };
  });
  await e.orders.placeLimitOrders('crash', specs);
  if (rand() < 0.3) {
    const open = e.store.orders.listByStrategy('crash', ['OPEN', 'PARTIALLY_FILLED']);
    const victim = open[Math.floor(rand() * open.length)];
    if (victim !== undefined) await e.orders.cancelOrder('crash', victim.clientOrderId);
  }
  if (i % 4 === 3) await e.reconciler.reconcileOnce();
}
