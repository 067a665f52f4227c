/**
 * The soak run of `soak.bench.ts`, in its own process (started with --expose-gc): the real
 * daemon (`startDaemon`, paper mode, the example strategies) on fast schedules, sampled every
 * `SOAK_SAMPLE_S` seconds after a forced GC. Prints one JSON line per sample:
 * {t, heapMb, rssMb, orders, fills, jobsRun}, then {done: true}.
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { SystemClock } from '../../src/core/clock.js';
import { loadConfiguredStrategies, startDaemon } from '../../src/main.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStoreReadOnly } from '../../src/store/index.js';

const seconds = Number.parseInt(process.env['SOAK_SECONDS'] ?? '180', 10);
const sampleS = Number.parseInt(process.env['SOAK_SAMPLE_S'] ?? '10', 10);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-soak-'));
const file = JSON.parse(readFileSync('config/bot.json', 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// Every job each second or two, and a market that moves 10 times a second: months of ticks are
// not reachable, so the run packs as many ticks, fills and scans as it can into its minutes.
file['jobs'] = { ...file['jobs'], reconcileCron: '* * * * * *', equityCheckCron: '*/2 * * * * *', creditCheckCron: '*/5 * * * * *', flexPullCron: '*/10 * * * * *' };
for (const s of file['strategies'] as Record<string, unknown>[]) s['schedule'] = '* * * * * *';
file['paper'] = { ...file['paper'], priceStepMs: 100, volatility: '0.001' };
const configPath = path.join(dir, 'bot.json');
writeFileSync(configPath, JSON.stringify(file));

const config = loadConfig({ env: { BOT_MODE: 'paper', BOT_CONFIG: configPath, BOT_DATA_DIR: path.join(dir, 'data'), BOT_HTTP_PORT: '0', LOG_LEVEL: 'silent', ENV_FILE: '' }, cwd: process.cwd() });
const logger = createLogger({ level: 'silent', pretty: false });
const daemon = await startDaemon({ config, clock: new SystemClock(), logger, strategies: await loadConfiguredStrategies(config) });
const reader = openStoreReadOnly(config.dataDir, new SystemClock());
const started = performance.now();
const sample = (): void => {
  gc();
  const m = process.memoryUsage();
  const counts = reader.orders.countByState();
  const orders = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ t: Math.round((performance.now() - started) / 1000), heapMb: +(m.heapUsed / 1048576).toFixed(2), rssMb: +(m.rss / 1048576).toFixed(1), orders, fills: reader.fills.count() }));
};
sample();
for (let t = sampleS; t <= seconds; t += sampleS) {
  await new Promise((r) => setTimeout(r, sampleS * 1000));
  sample();
}
await daemon.stop('soak done');
reader.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ done: true }));
process.exit(0);
