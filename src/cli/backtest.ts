/**
 * `npm run backtest -- --config config/bot.json --prices samples/prices [--from ISO] [--to ISO]
 * [--out dir] [--job-resolution cron|step]`: the configured strategies on the live engine against the simulator replaying the
 * price CSV on a virtual clock (docs/backtesting.md). Progress on stderr when it is a terminal,
 * one summary line at the end. Exit codes: 0 done; 1 the run failed; 2 bad flags, config or
 * price file (the message names the file, line and column).
 */
import { parseArgs } from '../backtest/args.js';
import { backtest } from '../backtest/index.js';
import { installZeroDelayTimers } from '../backtest/zero-delay-timers.js';
import type { Progress } from '../backtest/run.js';
import { ConfigError, errorCode, errorMessage } from '../core/errors.js';
import { createLogger } from '../observability/logger.js';
import pino from 'pino';

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z');
}

function progressLine(p: Progress): void {
  const pct = ((100 * (p.nowMs - p.fromMs)) / Math.max(1, p.toMs - p.fromMs)).toFixed(1);
  process.stderr.write(`\r${iso(p.nowMs)}  ${pct.padStart(5)} %  orders ${p.orders}  fills ${p.fills}   `);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    return fail(err);
  }
  installZeroDelayTimers();
  const logger = createLogger({ level: args.logLevel, destination: pino.destination(2), base: { app: 'v4-bot-backtest' } });
  const tty = process.stderr.isTTY === true;
  try {
    const s = await backtest(args, logger, tty ? progressLine : undefined);
    if (tty) process.stderr.write('\n');
    const t = s.result.total;
    process.stderr.write(
      `backtest ${iso(s.result.inputs.fromMs)} .. ${iso(s.result.inputs.toMs)}: orders ${t.orders}, fills ${t.fills}, trades ${t.trades}, ` +
        `net PnL ${t.netPnl}, fees ${t.fees}, max drawdown ${t.maxDrawdown} → ${s.outDir}/result.json, ${s.outDir}/report.html\n`,
    );
  } catch (err) {
    fail(err);
  }
}

function fail(err: unknown): void {
  if (err instanceof ConfigError) {
    process.stderr.write(`v4-bot backtest: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`v4-bot backtest: failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
  process.exit(1);
}

main().then(
  () => process.exit(0),
  (err: unknown) => fail(err),
);
