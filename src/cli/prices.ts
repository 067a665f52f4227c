/**
 * The recorded prices and candles (docs/market-data.md, docs/backtesting.md § Recording prices):
 *
 * - `npm run prices -- export [--out file-or-dir] [--from ISO] [--to ISO] [--candles TIMEFRAME]
 *   [--data-dir dir]`: the prices the daemon recorded as price CSV for `npm run backtest`, or with
 *   `--candles` its closed candles of that timeframe as OHLCV CSV. `--out` ending in `/` or naming
 *   an existing directory gets one `<MARKET>.csv` per market; another path gets one file with a
 *   `market` column; without `--out` that file goes to stdout. Safe while the daemon runs.
 * - `npm run prices -- import FILE --market M [--timeframe 1m] [--data-dir dir]`: loads OHLCV
 *   history as one-minute candles; it takes the store's lock, so the daemon must be stopped.
 *
 * Exit codes: 0 done; 1 failure (no store, store locked); 2 bad arguments or a bad file row.
 */
import { statSync, writeFileSync } from 'node:fs';
import { candlesByMarket, singleCandleCsv, writeCandleFiles } from '../backtest/candle-export.js';
import { importCandles } from '../backtest/candle-import.js';
import { parseTime, PriceFileError } from '../backtest/price-csv.js';
import { singleCsv, writeMarketFiles } from '../backtest/price-export.js';
import { SystemClock } from '../core/clock.js';
import { errorCode, errorMessage } from '../core/errors.js';
import { MARKET_RE } from '../core/market-names.js';
import { silentLogger } from '../observability/logger.js';
import { openStore, openStoreReadOnly, TIMEFRAMES, type Timeframe } from '../store/index.js';

const EXPORT_FLAGS = ['--out', '--from', '--to', '--candles', '--data-dir'];
const IMPORT_FLAGS = ['--market', '--timeframe', '--data-dir'];

function refuse(message: string): never {
  process.stderr.write(`v4-bot prices: ${message}\n`);
  process.exit(2);
}

function flags(argv: string[], known: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] as string, argv[i + 1]];
    if (!known.includes(flag)) refuse(`${flag}: expected one of ${known.join(', ')}`);
    if (value === undefined) refuse(`${flag}: expected a value`);
    out.set(flag, value);
  }
  return out;
}

function time(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return parseTime(v) ?? refuse(`${flag}: expected an ISO-8601 UTC time or Unix seconds/milliseconds, found "${v.slice(0, 40)}"`);
}

function timeframe(v: string | undefined): Timeframe | undefined {
  if (v === undefined || (TIMEFRAMES as readonly string[]).includes(v)) return v as Timeframe | undefined;
  return refuse(`--candles: expected one of ${TIMEFRAMES.join(', ')}, found "${v.slice(0, 20)}"`);
}

function isDir(p: string): boolean {
  if (p.endsWith('/')) return true;
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function dataDirOf(f: Map<string, string>): string {
  return f.get('--data-dir') ?? process.env['BOT_DATA_DIR'] ?? './data';
}

function exportCommand(argv: string[]): void {
  const f = flags(argv, EXPORT_FLAGS);
  // Every flag is checked before the store is opened: a typo is exit 2 whatever the data dir holds.
  const [fromMs, toMs, tf] = [time('--from', f.get('--from')), time('--to', f.get('--to')), timeframe(f.get('--candles'))];
  const store = openStoreReadOnly(dataDirOf(f), new SystemClock());
  try {
    const out = f.get('--out');
    if (tf !== undefined) {
      const byMarket = candlesByMarket(store.candles, tf, fromMs, toMs);
      if (out === undefined) process.stdout.write(singleCandleCsv(byMarket));
      else if (isDir(out)) process.stderr.write(`wrote ${writeCandleFiles(out, byMarket).join(', ') || 'no file (no candles recorded)'}\n`);
      else writeFileSync(out, singleCandleCsv(byMarket));
      return;
    }
    const samples = store.prices.range(fromMs, toMs);
    if (out === undefined) process.stdout.write(singleCsv(samples));
    else if (isDir(out)) process.stderr.write(`wrote ${writeMarketFiles(out, samples).join(', ') || 'no file (no prices recorded)'}\n`);
    else writeFileSync(out, singleCsv(samples));
  } finally {
    store.close();
  }
}

function importCommand(argv: string[]): void {
  const file = argv[0];
  if (file === undefined || file.startsWith('--')) refuse('import: expected a file, then --market M');
  const f = flags(argv.slice(1), IMPORT_FLAGS);
  const market = f.get('--market') ?? refuse('import: expected --market M (e.g. BTC_USDT)');
  if (!MARKET_RE.test(market)) refuse(`--market: expected a market name like BTC_USDT, found "${market.slice(0, 40)}"`);
  const tf = f.get('--timeframe') ?? '1m';
  // Longer timeframes are aggregated from one-minute candles; a coarser candle cannot be split into minutes.
  if (tf !== '1m') refuse(`--timeframe: expected 1m (longer timeframes are built from one-minute candles), found "${tf.slice(0, 20)}"`);
  const store = openStore({ dataDir: dataDirOf(f), clock: new SystemClock(), logger: silentLogger() });
  try {
    const counts = importCandles(store, file, market);
    process.stderr.write(`imported ${market} 1m: ${counts.added} added, ${counts.changed} changed, ${counts.unchanged} unchanged\n`);
  } finally {
    store.close();
  }
}

function main(): void {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'export') exportCommand(rest);
  else if (command === 'import') importCommand(rest);
  else refuse(`expected the command "export" or "import", found "${command ?? ''}"`);
}

try {
  main();
} catch (err) {
  if (err instanceof PriceFileError) refuse(err.message);
  process.stderr.write(`v4-bot prices: failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
  process.exit(1);
}
