/**
 * `npm run sim -- --port 8080 --api-key K [--api-secret-file F] [--seed N]
 *  [--balances USDT=10000,BTC=1] [--admin] [--speed N] [--step-ms N]`
 *
 * Starts the simulator as a standalone venue on 127.0.0.1 and prints its base URL (and the
 * generated key pair when no key is given). The secret comes from `--api-secret-file`, or
 * `SIM_API_SECRET`; `--api-secret S` still works but warns: a command line is visible to every
 * user of the machine (`ps`). Bad flags: usage on stderr, exit 2. SIGINT/SIGTERM: stops
 * listening, exit 0.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ScaledClock, SystemClock, type Clock } from '../core/clock.js';
import { isDecimalString } from '../core/decimal.js';
import { DEFAULT_BALANCES, defaultMarkets, linkedMarkets, startSimulator } from '../simulator/index.js';

const USAGE = `usage: npm run sim -- [--port N] [--api-key K [--api-secret-file F]] [--seed N]
                      [--balances ASSET=AMOUNT,...] [--admin] [--speed N] [--step-ms N]

  --port N              TCP port on 127.0.0.1 (default 8080; 0 = any free port)
  --api-key K           API key of the funded account (or SIM_API_KEY; generated with its secret when absent)
  --api-secret-file F   file holding that account's API secret (one line)
                        (or SIM_API_SECRET; --api-secret S works too but shows the secret in ps)
  --seed N              seed of prices, fills and faults (default 1)
  --balances LIST       starting balances, e.g. USDT=10000,BTC=1 (default USDT=100000,BTC=1,ETH=10)
  --admin               serve the /_sim/ admin routes (loopback only)
  --speed N             simulated time runs N times faster than real time (default 1)
  --step-ms N           simulated milliseconds per price step (default 1000)
  --help                this text`;

/** Parsed command line. */
export interface SimArgs {
  port: number;
  apiKey?: string;
  /** Given on the command line (visible in `ps`): accepted with a warning. */
  apiSecret?: string;
  apiSecretFile?: string;
  seed: number;
  balances: Record<string, string>;
  admin: boolean;
  speed: number;
  stepMs: number;
  help: boolean;
}

export class UsageError extends Error {}

function intArg(flag: string, v: string | undefined, min: number, max: number): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${flag} needs an integer from ${min} to ${max}, got ${JSON.stringify(v ?? '')}`);
  return Number(v);
}

/** A non-empty value that is not the next flag; the value itself never reaches a message. */
function textArg(flag: string, v: string | undefined): string {
  if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  return v;
}

function balancesArg(v: string): Record<string, string> {
  const balances: Record<string, string> = {};
  for (const part of v.split(',')) {
    const m = /^([A-Za-z0-9]{1,20})=(.+)$/.exec(part);
    if (m === null || m[1] === undefined || m[2] === undefined || !isDecimalString(m[2]) || m[2].startsWith('-')) {
      throw new UsageError(`--balances needs ASSET=AMOUNT pairs like USDT=10000,BTC=1, got ${JSON.stringify(part)}`);
    }
    balances[m[1].toUpperCase()] = m[2];
  }
  return balances;
}

type FlagHandler = (out: SimArgs, value: () => string | undefined, flag: string) => void;

const FLAGS: Record<string, FlagHandler> = {
  '--port': (o, v, f) => (o.port = intArg(f, v(), 0, 65535)),
  '--api-key': (o, v, f) => (o.apiKey = textArg(f, v())),
  '--api-secret': (o, v, f) => (o.apiSecret = textArg(f, v())),
  '--api-secret-file': (o, v, f) => (o.apiSecretFile = textArg(f, v())),
  '--seed': (o, v, f) => (o.seed = intArg(f, v(), 0, 4294967295)),
  '--balances': (o, v) => (o.balances = balancesArg(v() ?? '')),
  '--admin': (o) => (o.admin = true),
  '--speed': (o, v, f) => (o.speed = intArg(f, v(), 1, 1_000_000)),
  '--step-ms': (o, v, f) => (o.stepMs = intArg(f, v(), 1, 86_400_000)),
  '--help': (o) => (o.help = true),
  '-h': (o) => (o.help = true),
};

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseSimArgs(argv: readonly string[]): SimArgs {
  const out: SimArgs = { port: 8080, seed: 1, balances: { ...DEFAULT_BALANCES }, admin: false, speed: 1, stepMs: 1000, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? '';
    const handler = FLAGS[flag];
    if (handler === undefined) throw new UsageError(`unknown flag ${JSON.stringify(flag)}`);
    handler(out, () => argv[++i], flag);
  }
  if (out.apiSecret !== undefined && out.apiSecretFile !== undefined) throw new UsageError('give the secret once: --api-secret-file or --api-secret');
  return out;
}

/** The account's key pair, or undefined to generate one; `warnings` go to stderr. */
export interface Credentials {
  pair: { apiKey: string; apiSecret: string } | undefined;
  warnings: string[];
}

function readSecretFile(file: string, read: (file: string) => string): string {
  let text: string;
  try {
    text = read(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--api-secret-file: cannot read ${JSON.stringify(file)} (${code})`);
  }
  // One line; the newline an editor or `echo` leaves is not part of the secret.
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '' || /[\r\n]/.test(secret)) throw new UsageError('--api-secret-file must hold the secret on one line');
  return secret;
}

/**
 * Key and secret from the flags and the environment: the key from `--api-key` or `SIM_API_KEY`;
 * the secret from `--api-secret-file`, else `--api-secret` (warned), else `SIM_API_SECRET`.
 * Both or neither (neither: a pair is generated).
 */
export function resolveCredentials(args: SimArgs, env: NodeJS.ProcessEnv, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Credentials {
  const warnings: string[] = [];
  const apiKey = args.apiKey ?? (env['SIM_API_KEY'] || undefined);
  let apiSecret: string | undefined;
  if (args.apiSecretFile !== undefined) apiSecret = readSecretFile(args.apiSecretFile, read);
  else if (args.apiSecret !== undefined) {
    apiSecret = args.apiSecret;
    warnings.push('--api-secret puts the secret on the command line, where every user of this machine can read it (ps); use SIM_API_SECRET or --api-secret-file');
  } else apiSecret = env['SIM_API_SECRET'] || undefined;
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    throw new UsageError('an API key needs its secret and a secret its key: --api-key (or SIM_API_KEY) with --api-secret-file (or SIM_API_SECRET)');
  }
  return { pair: apiKey === undefined || apiSecret === undefined ? undefined : { apiKey, apiSecret }, warnings };
}

function usageExit(err: unknown): never {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`sim: ${err.message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args: SimArgs;
  let creds: Credentials;
  try {
    args = parseSimArgs(process.argv.slice(2));
    creds = resolveCredentials(args, process.env);
  } catch (err) {
    usageExit(err);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  for (const w of creds.warnings) process.stderr.write(`sim: warning: ${w}\n`);
  const generated = creds.pair === undefined;
  const apiKey = creds.pair?.apiKey ?? randomBytes(16).toString('hex');
  const apiSecret = creds.pair?.apiSecret ?? randomBytes(32).toString('hex');
  const system = new SystemClock();
  const clock: Clock = args.speed === 1 ? system : new ScaledClock(system.now(), args.speed, system);
  const sim = await startSimulator({
    clock,
    seed: args.seed,
    port: args.port,
    host: '127.0.0.1',
    stepMs: args.stepMs,
    // Like paper mode: a spot market and its perpetual share one price path, because the bot
    // prices spot markets from the perpetual's futures listing entry.
    markets: linkedMarkets(defaultMarkets()),
    admin: args.admin,
    accounts: [{ apiKey, apiSecret, balances: args.balances }],
  });
  process.stdout.write(`simulator listening on ${sim.baseUrl}\n`);
  if (generated) process.stdout.write(`api key: ${apiKey}\napi secret: ${apiSecret}\n`);
  if (args.admin) process.stdout.write(`admin routes: ${sim.baseUrl}/_sim/truth\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sim: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
