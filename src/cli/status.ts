/**
 * `npm run status [-- --json] [-- --data-dir DIR]`: what the bot holds and has done (open orders,
 * recent fills, balances and equity, positions with realised PnL before and after fees and
 * unrealised PnL, trading state, quarantines, alerts; src/cli/status-model.ts), read from the
 * store through a read-only connection (no lock, works while the daemon runs; WAL keeps the view
 * consistent). Without `--data-dir` the data dir and mode come from the daemon's own environment
 * settings (`ENV_FILE` or `.env` or `config/paper.env`, then the environment; the `BOT_CONFIG`
 * file is not read), so status reads the store the daemon with the same environment uses. Exit
 * codes: 0 shown, 1 no readable store, 2 bad arguments or invalid settings.
 */
import path from 'node:path';
import { readCommandSettings } from '../config/command-settings.js';
import { PAPER_ENV_FALLBACK } from '../config/paper-fallback.js';
import { SystemClock } from '../core/clock.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { buildStatus } from './status-model.js';
import { renderText } from './status-text.js';

export { buildStatus } from './status-model.js';

const USAGE =
  'usage: status [--json] [--data-dir DIR]\n' +
  `  without --data-dir: the data dir and mode of the daemon's settings (ENV_FILE or .env, else ${PAPER_ENV_FALLBACK}; then the environment)`;

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

/**
 * Where to read: `--data-dir` as given (mode unknown), else the data dir and mode of the daemon's
 * environment settings (src/config/command-settings.ts: no config file, no schemas to load).
 */
function target(args: StatusArgs): { dataDir: string; mode: 'paper' | 'live' | null; envFile: string | null } {
  if (args.dataDir !== null) return { dataDir: path.resolve(args.dataDir), mode: null, envFile: null };
  const config = readCommandSettings({ env: process.env, cwd: process.cwd(), fallbackEnvFile: PAPER_ENV_FALLBACK });
  // On stderr: stdout carries the status (and --json must stay one JSON document).
  if (config.envFileFallback) process.stderr.write(`status: no .env: using ${PAPER_ENV_FALLBACK} (paper mode)\n`);
  return { dataDir: config.dataDir, mode: config.mode, envFile: config.envFile };
}

function main(argv: readonly string[]): number {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseStatusArgs(argv);
  if (args === null) {
    process.stderr.write(`status: unknown argument in ${JSON.stringify(argv.join(' '))}\n${USAGE}\n`);
    return 2;
  }
  try {
    const where = target(args);
    const st = { dataDir: where.dataDir, mode: where.mode, envFile: where.envFile, ...buildStatus(where.dataDir, new SystemClock()) };
    process.stdout.write(`${args.json ? JSON.stringify(st) : renderText(st)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`status: ${errorMessage(err)}\n`);
    return err instanceof ConfigError ? 2 : 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && /status\.(js|ts)$/.test(process.argv[1]);
if (invokedDirectly) process.exitCode = main(process.argv.slice(2));
