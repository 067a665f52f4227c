/**
 * `npm run status [-- --json] [-- --data-dir DIR]`: what the bot holds and has done, read from the
 * store through a read-only connection (no lock, works while the daemon runs; WAL keeps the view
 * consistent). Without `--data-dir` the data dir and mode come from the daemon's own config
 * loading (`ENV_FILE`, the environment, `BOT_CONFIG`; strategies are not loaded), so status reads
 * the store the daemon with the same environment uses. Exit codes: 0 shown, 1 no readable store,
 * 2 bad arguments or invalid configuration.
 */
import path from 'node:path';
import { loadConfig } from '../config/index.js';
import { SystemClock } from '../core/clock.js';
import { toWire, type Decimal } from '../core/decimal.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { flexEarnings, flexEarningsTotal } from '../engine/flex-job.js';
import { marketSums } from '../engine/positions.js';
import { ReadModels } from '../engine/read-models.js';
import { RECONCILED_AT } from '../engine/reconciler.js';
import { openStoreReadOnly, type CreditSnapshot } from '../store/index.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

const s = (d: Decimal | null): string | null => (d === null ? null : toWire(d));
const rec = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, toWire(v)]));

/** Builds the status object (also used by tests). */
export function buildStatus(dataDir: string): Record<string, Json> {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    const read = new ReadModels(store);
    const orders = store.orders.all();
    const byState: Record<string, number> = {};
    for (const o of orders) byState[o.state] = (byState[o.state] ?? 0) + 1;
    const unknown = orders
      .filter((o) => o.state === 'UNKNOWN' || o.state === 'PENDING_CANCEL' || o.state === 'PENDING')
      .map((o) => ({ clientOrderId: o.clientOrderId, strategyId: o.strategyId, market: o.market, state: o.state, since: o.unknownSinceMs }));
    const fills = store.fills.all();
    const flexRows = store.flex.all();
    const credit: CreditSnapshot | undefined = store.credit.latest();
    const reconciled = store.checkpoints.get(RECONCILED_AT);
    return {
      orders: { byState, unresolved: unknown },
      fills: {
        count: fills.length,
        markets: marketSums(fills).map((m) => ({
          market: m.market,
          fills: m.fills,
          buyBase: toWire(m.buyBase),
          sellBase: toWire(m.sellBase),
          buyQuote: toWire(m.buyQuote),
          sellQuote: toWire(m.sellQuote),
          fees: rec(m.fees),
        })),
      },
      positions: read.allPositions().map((p) => ({
        strategyId: p.strategyId,
        market: p.market,
        base: toWire(p.base),
        avgEntry: s(p.avgEntry),
        realisedPnl: toWire(p.realisedPnl),
        fees: rec(p.fees),
        fills: p.fillCount,
      })),
      flex: {
        records: flexRows.length,
        earnings: rec(flexEarningsTotal(flexRows)),
        earningsByDay: Object.fromEntries(Object.entries(flexEarnings(flexRows)).map(([c, days]) => [c, rec(days)])),
        disabled: store.meta.get('flex.disabled') ?? null,
      },
      credit:
        credit === undefined
          ? null
          : {
              atMs: credit.atMs,
              active: credit.active,
              asset: credit.asset,
              amount: s(credit.amount),
              currentLtv: s(credit.currentLtv),
              marginCallLtv: s(credit.marginCallLtv),
              liquidationLtv: s(credit.liquidationLtv),
            },
      reconciledAt: reconciled === undefined ? null : new Date(Number.parseInt(reconciled.value, 10)).toISOString(),
    };
  } finally {
    store.close();
  }
}

function creditLine(c: Record<string, Json> | null): string {
  if (c === null) return 'never checked';
  if (c['active'] !== true) return 'no active loan';
  return `${String(c['amount'])} ${String(c['asset'])}, LTV ${String(c['currentLtv'])} (margin call ${String(c['marginCallLtv'])})`;
}

function printText(st: Record<string, Json>): void {
  const out: string[] = [];
  out.push(`Data dir: ${String(st['dataDir'])} (mode: ${String(st['mode'] ?? 'not read, --data-dir given')})`);
  const o = st['orders'] as { byState: Record<string, number>; unresolved: Json[] };
  out.push('Orders by state:');
  for (const [k, v] of Object.entries(o.byState).sort()) out.push(`  ${k.padEnd(18)} ${v}`);
  if (o.unresolved.length > 0) {
    out.push('Unresolved (UNKNOWN / PENDING / PENDING_CANCEL):');
    for (const u of o.unresolved as { clientOrderId: string; market: string; state: string; strategyId: string }[]) {
      out.push(`  ${u.clientOrderId} ${u.strategyId} ${u.market} ${u.state}`);
    }
  }
  const f = st['fills'] as { count: number; markets: Record<string, Json>[] };
  out.push(`Fills: ${f.count}`);
  for (const m of f.markets) {
    out.push(`  ${String(m['market'])}: buy ${String(m['buyBase'])} for ${String(m['buyQuote'])}, sell ${String(m['sellBase'])} for ${String(m['sellQuote'])}, fees ${JSON.stringify(m['fees'])}`);
  }
  out.push('Positions:');
  for (const p of st['positions'] as Record<string, Json>[]) {
    out.push(`  ${String(p['strategyId'] ?? '(external)')} ${String(p['market'])}: base ${String(p['base'])} avg ${String(p['avgEntry'] ?? '-')} realised ${String(p['realisedPnl'])}`);
  }
  const fl = st['flex'] as { earnings: Record<string, string>; disabled: string | null };
  out.push(`Flex earnings: ${Object.entries(fl.earnings).map(([c, v]) => `${v} ${c}`).join(', ') || 'none'}${fl.disabled === null ? '' : ' (job disabled)'}`);
  out.push(`Credit line: ${creditLine(st['credit'] as Record<string, Json> | null)}`);
  out.push(`Last reconciliation: ${String(st['reconciledAt'] ?? 'never')}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

const USAGE = 'usage: status [--json] [--data-dir DIR]\n  without --data-dir: the data dir and mode of the daemon\'s configuration (ENV_FILE, environment, BOT_CONFIG)';

interface StatusArgs {
  json: boolean;
  dataDir: string | null;
}

/** Parses the flags; null for anything else. */
export function parseStatusArgs(argv: readonly string[]): StatusArgs | null {
  const out: StatusArgs = { json: false, dataDir: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') out.json = true;
    else if (a === '--data-dir' && argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('--')) out.dataDir = argv[++i] as string;
    else return null;
  }
  return out;
}

/** Where to read: `--data-dir` as given (mode unknown), else the configuration's data dir and mode. */
function target(args: StatusArgs): { dataDir: string; mode: 'paper' | 'live' | null; envFile: string | null } {
  if (args.dataDir !== null) return { dataDir: path.resolve(args.dataDir), mode: null, envFile: null };
  const config = loadConfig({ env: process.env, cwd: process.cwd() });
  return { dataDir: config.dataDir, mode: config.mode, envFile: config.envFile };
}

function main(argv: readonly string[]): number {
  const args = parseStatusArgs(argv);
  if (args === null) {
    process.stderr.write(`status: unknown argument in ${JSON.stringify(argv.join(' '))}\n${USAGE}\n`);
    return 2;
  }
  try {
    const where = target(args);
    const st = { dataDir: where.dataDir, mode: where.mode, envFile: where.envFile, ...buildStatus(where.dataDir) };
    if (args.json) process.stdout.write(`${JSON.stringify(st)}\n`);
    else printText(st);
    return 0;
  } catch (err) {
    process.stderr.write(`status: ${errorMessage(err)}\n`);
    return err instanceof ConfigError ? 2 : 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && /status\.(js|ts)$/.test(process.argv[1]);
if (invokedDirectly) process.exitCode = main(process.argv.slice(2));
