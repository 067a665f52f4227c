/**
 * `npm run optimize -- worker --redis URL [--concurrency N] [--lock-duration MS]
 * [--stalled-interval MS] [--log-level L]` (docs/optimize-workers.md § Workers): runs the trials
 * of every study submitted to that Redis until SIGINT or SIGTERM (running trials finish first; a
 * second signal exits at once). `optimizeWorker(argv)` is what the optimize command dispatches
 * `worker` to; run directly (`node dist/src/cli/optimize-worker.js …`) it is the same command.
 * Exit codes: 0 stopped; 1 failed; 2 bad flags.
 */
import os from 'node:os';
import pino from 'pino';
import { ConfigError, errorMessage } from '../core/errors.js';
import { createLogger } from '../observability/logger.js';
import { maskRedisUrl } from '../optimize/redis-queue.js';
import { runRedisWorker, type RedisWorkerOptions } from '../optimize/redis-worker.js';

export const WORKER_HELP = `usage: npm run optimize -- worker --redis URL [--concurrency N] [--lock-duration MS] [--stalled-interval MS] [--log-level L]

Runs the trials of every study submitted to that Redis (docs/optimize-workers.md).
  --redis URL             redis://[user:password@]host:port[/db] (rediss:// for TLS)
  --concurrency N         trials at once, one runner process each (default: ${os.availableParallelism()}, the cores here)
  --lock-duration MS      how long a dead worker's trial waits before another worker retries it (default 30000)
  --stalled-interval MS   how often this worker looks for such trials (default 30000)
  --log-level L           error, warn, info (default), debug
`;

const FLAGS = ['--redis', '--concurrency', '--lock-duration', '--stalled-interval', '--log-level'];

function bad(flag: string, expected: string, found: string): ConfigError {
  return new ConfigError(`command line: ${flag}: expected ${expected}, found "${found.slice(0, 60)}"`);
}

function positiveInt(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(v)) throw bad(flag, 'a whole number >= 1', v);
  return Number(v);
}

export type WorkerArgs = Omit<RedisWorkerOptions, 'logger' | 'signal'> & { logLevel: string };

function pairs(argv: readonly string[]): Map<string, string> {
  const a = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] as string, argv[i + 1]];
    if (!FLAGS.includes(flag)) throw bad('arguments', `one of ${FLAGS.join(', ')}`, flag);
    if (value === undefined || value.startsWith('--')) throw bad(flag, 'a value', value ?? '');
    a.set(flag, value);
  }
  return a;
}

export function parseWorkerArgs(argv: readonly string[]): WorkerArgs {
  const a = pairs(argv);
  const url = a.get('--redis');
  if (url === undefined || !/^rediss?:\/\/[^/]/.test(url)) throw bad('--redis', 'a redis:// or rediss:// URL', url === undefined ? '' : maskRedisUrl(url));
  const out: WorkerArgs = { url, logLevel: a.get('--log-level') ?? 'info' };
  const concurrency = positiveInt('--concurrency', a.get('--concurrency'));
  const lock = positiveInt('--lock-duration', a.get('--lock-duration'));
  const stalled = positiveInt('--stalled-interval', a.get('--stalled-interval'));
  if (concurrency !== undefined) out.concurrency = concurrency;
  if (lock !== undefined) out.lockDurationMs = lock;
  if (stalled !== undefined) out.stalledIntervalMs = stalled;
  return out;
}

/** The `worker` subcommand; resolves with the exit code once stopped. */
export async function optimizeWorker(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(WORKER_HELP);
    return 0;
  }
  let args: WorkerArgs;
  try {
    args = parseWorkerArgs(argv);
  } catch (err) {
    process.stderr.write(`v4-bot optimize worker: ${errorMessage(err)}\n`);
    return 2;
  }
  const password = new URL(args.url).password;
  const secrets = password === '' ? [] : [password, decodeURIComponent(password)];
  const logger = createLogger({ level: args.logLevel, destination: pino.destination(2), base: { app: 'v4-bot-optimize-worker' }, secrets });
  const stop = new AbortController();
  const onSignal = (): void => {
    // A second signal does not wait for running trials.
    if (stop.signal.aborted) process.exit(130);
    logger.info('optimize worker: stopping after the running trials (signal again to stop now)');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { logLevel: _, ...options } = args;
    await runRedisWorker({ ...options, logger, signal: stop.signal });
    return 0;
  } catch (err) {
    logger.error({ err: errorMessage(err) }, 'optimize worker: failed');
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const invokedDirectly = process.argv[1] !== undefined && /optimize-worker\.(js|ts)$/.test(process.argv[1]);
if (invokedDirectly) {
  optimizeWorker(process.argv.slice(2)).then(
    (code) => process.exit(code),
    () => process.exit(1),
  );
}
