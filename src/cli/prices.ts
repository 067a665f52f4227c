/**
 * `npm run prices -- export [--out file-or-dir] [--from ISO] [--to ISO] [--data-dir dir]`: writes
 * the prices the daemon recorded (paper or live) as price CSV for `npm run backtest`
 * (docs/backtesting.md § Recording prices). `--out` ending in `/` or naming an existing directory
 * gets one `<MARKET>.csv` per market; another path gets one file with a `market` column; without
 * `--out` that file goes to stdout. Safe while the daemon runs (read-only store). Exit codes: 0
 * done; 1 failure (no store); 2 bad arguments.
 */
import { statSync, writeFileSync } from 'node:fs';
import { parseTime } from '../backtest/price-csv.js';
import { singleCsv, writeMarketFiles } from '../backtest/price-export.js';
import { SystemClock } from '../core/clock.js';
import { errorCode, errorMessage } from '../core/errors.js';
import { openStoreReadOnly } from '../store/index.js';

const FLAGS = ['--out', '--from', '--to', '--data-dir'];

function refuse(message: string): never {
  process.stderr.write(`v4-bot prices: ${message}\n`);
  process.exit(2);
}

function flags(argv: string[]): Map<string, string> {
  if (argv[0] !== 'export') refuse(`expected the command "export", found "${argv[0] ?? ''}"`);
  const out = new Map<string, string>();
  for (let i = 1; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] as string, argv[i + 1]];
    if (!FLAGS.includes(flag)) refuse(`${flag}: expected one of ${FLAGS.join(', ')}`);
    if (value === undefined) refuse(`${flag}: expected a value`);
    out.set(flag, value);
  }
  return out;
}

function time(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return parseTime(v) ?? refuse(`${flag}: expected an ISO-8601 UTC time or Unix seconds/milliseconds, found "${v.slice(0, 40)}"`);
}

function isDir(p: string): boolean {
  if (p.endsWith('/')) return true;
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function main(): void {
  const f = flags(process.argv.slice(2));
  const dataDir = f.get('--data-dir') ?? process.env['BOT_DATA_DIR'] ?? './data';
  // Every flag is checked before the store is opened: a typo is exit 2 whatever the data dir holds.
  const [fromMs, toMs] = [time('--from', f.get('--from')), time('--to', f.get('--to'))];
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    const samples = store.prices.range(fromMs, toMs);
    const out = f.get('--out');
    if (out === undefined) process.stdout.write(singleCsv(samples));
    else if (isDir(out)) process.stderr.write(`wrote ${writeMarketFiles(out, samples).join(', ') || 'no file (no prices recorded)'}\n`);
    else writeFileSync(out, singleCsv(samples));
  } finally {
    store.close();
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`v4-bot prices: failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
  process.exit(1);
}
