/**
 * `npm run sim -- --port 8080 --api-key K --api-secret S [--seed N] [--balances USDT=10000,BTC=1]
 *  [--admin] [--speed N] [--step-ms N]`
 *
 * Starts the simulator as a standalone venue on 127.0.0.1 and prints its base URL (and the
 * generated key pair when no key flags are given). Bad flags: usage on stderr, exit 2.
 * SIGINT/SIGTERM: stops listening, exit 0.
 */
import { randomBytes } from 'node:crypto';
import { ScaledClock, SystemClock, type Clock } from '../core/clock.js';
import { isDecimalString } from '../core/decimal.js';
import { DEFAULT_BALANCES, startSimulator } from '../simulator/index.js';

const USAGE = `usage: npm run sim -- [--port N] [--api-key K --api-secret S] [--seed N]
                      [--balances ASSET=AMOUNT,...] [--admin] [--speed N] [--step-ms N]

  --port N          TCP port on 127.0.0.1 (default 8080; 0 = any free port)
  --api-key K       API key of the funded account (with --api-secret; generated when both absent)
  --api-secret S    API secret of that account
  --seed N          seed of prices, fills and faults (default 1)
  --balances LIST   starting balances, e.g. USDT=10000,BTC=1 (default USDT=100000,BTC=1,ETH=10)
  --admin           serve the /_sim/ admin routes (loopback only)
  --speed N         simulated time runs N times faster than real time (default 1)
  --step-ms N       simulated milliseconds per price step (default 1000)
  --help            this text`;

/** Parsed command line. */
export interface SimArgs {
  port: number;
  apiKey?: string;
  apiSecret?: string;
  seed: number;
  balances: Record<string, string>;
  admin: boolean;
  speed: number;
  stepMs: number;
  help: boolean;
}

class UsageError extends Error {}

function intArg(flag: string, v: string | undefined, min: number, max: number): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${flag} needs an integer from ${min} to ${max}, got ${JSON.stringify(v ?? '')}`);
  return Number(v);
}

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseSimArgs(argv: readonly string[]): SimArgs {
  const out: SimArgs = { port: 8080, seed: 1, balances: { ...DEFAULT_BALANCES }, admin: false, speed: 1, stepMs: 1000, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? '';
    const next = (): string | undefined => argv[++i];
    switch (flag) {
      case '--port':
        out.port = intArg(flag, next(), 0, 65535);
        break;
      case '--api-key':
      {
        const v = next();
        if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError('--api-key needs a value');
        out.apiKey = v;
      }
        break;
      case '--api-secret':
      {
        const v = next();
        if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError('--api-secret needs a value');
        out.apiSecret = v;
      }
        break;
      case '--seed':
        out.seed = intArg(flag, next(), 0, 4294967295);
        break;
      case '--balances': {
        const v = next() ?? '';
        const balances: Record<string, string> = {};
        for (const part of v.split(',')) {
          const m = /^([A-Za-z0-9]{1,20})=(.+)$/.exec(part);
          if (m === null || m[1] === undefined || m[2] === undefined || !isDecimalString(m[2]) || m[2].startsWith('-')) {
            throw new UsageError(`--balances needs ASSET=AMOUNT pairs like USDT=10000,BTC=1, got ${JSON.stringify(part)}`);
          }
          balances[m[1].toUpperCase()] = m[2];
        }
        out.balances = balances;
        break;
      }
      case '--admin':
        out.admin = true;
        break;
      case '--speed':
        out.speed = intArg(flag, next(), 1, 1_000_000);
        break;
      case '--step-ms':
        out.stepMs = intArg(flag, next(), 1, 86_400_000);
        break;
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new UsageError(`unknown flag ${JSON.stringify(flag)}`);
    }
  }
  if ((out.apiKey === undefined) !== (out.apiSecret === undefined)) throw new UsageError('--api-key and --api-secret go together');
  return out;
}

async function main(): Promise<void> {
  let args: SimArgs;
  try {
    args = parseSimArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`sim: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const generated = args.apiKey === undefined;
  const apiKey = args.apiKey ?? randomBytes(16).toString('hex');
  const apiSecret = args.apiSecret ?? randomBytes(32).toString('hex');
  const system = new SystemClock();
  const clock: Clock = args.speed === 1 ? system : new ScaledClock(system.now(), args.speed, system);
  const sim = await startSimulator({
    clock,
    seed: args.seed,
    port: args.port,
    host: '127.0.0.1',
    stepMs: args.stepMs,
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
