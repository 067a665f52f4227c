/**
 * The soak run of `soak.bench.ts`, in its own process (started with --expose-gc): the real
 * daemon (`startDaemon`, the example strategies, fast schedules) in live mode against the
 * simulator the parent runs, so this heap holds the bot only, not the venue's growing books.
 * Sampled every `SOAK_SAMPLE_S` seconds after a forced GC; prints one JSON line per sample:
 * {t, heapMb, rssMb, orders, fills}, then {done: true}.
 *   env: SOAK_CONFIG, SOAK_DATA_DIR, API_BASE_URL, API_KEY, API_SECRET, SOAK_SECONDS, SOAK_SAMPLE_S
 */
import { loadConfig } from '../../src/config/index.js';
import { SystemClock } from '../../src/core/clock.js';
import { loadConfiguredStrategies } from '../../src/daemon/strategies.js';
import { startDaemon } from '../../src/daemon/start.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStoreReadOnly } from '../../src/store/index.js';

const need = (k: string): string => {
  const v = process.env[k];
  if (v === undefined) throw new Error(`missing ${k}`);
  return v;
};
const seconds = Number.parseInt(process.env['SOAK_SECONDS'] ?? '180', 10);
const sampleS = Number.parseInt(process.env['SOAK_SAMPLE_S'] ?? '10', 10);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const config = loadConfig({
  env: { BOT_MODE: 'live', BOT_CONFIG: need('SOAK_CONFIG'), BOT_DATA_DIR: need('SOAK_DATA_DIR'), BOT_HTTP_PORT: '0', LOG_LEVEL: 'silent', ENV_FILE: '', API_BASE_URL: need('API_BASE_URL'), API_KEY: need('API_KEY'), API_SECRET: need('API_SECRET') },
  cwd: process.cwd(),
});
const logger = createLogger({ level: 'silent', pretty: false });
const daemon = await startDaemon({ config, clock: new SystemClock(), logger, strategies: await loadConfiguredStrategies(config) });
const reader = openStoreReadOnly(config.dataDir, new SystemClock());
const started = performance.now();
const sample = (): void => {
  gc();
  const m = process.memoryUsage();
  const orders = Object.values(reader.orders.countByState()).reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ t: Math.round((performance.now() - started) / 1000), heapMb: +(m.heapUsed / 1048576).toFixed(2), rssMb: +(m.rss / 1048576).toFixed(1), orders, fills: reader.fills.count() }));
};
sample();
for (let t = sampleS; t <= seconds; t += sampleS) {
  await new Promise((r) => setTimeout(r, sampleS * 1000));
  sample();
}
await daemon.stop('soak done');
reader.close();
console.log(JSON.stringify({ done: true }));
process.exit(0);
