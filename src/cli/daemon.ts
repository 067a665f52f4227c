/**
 * `npm start` / `node dist/src/cli/daemon.js` / pm2: the long-lived daemon. Thin: load and
 * validate the configuration (exit 2 before any network call when it is wrong), build the
 * logger, start the composition root, signal readiness, and stop gracefully on SIGINT/SIGTERM.
 *
 * Flags: `--resume-trading` sets a persisted HALTED / REDUCE_ONLY back to ACTIVE after start-up
 * reconciliation (an operator decision; the reason is logged). `--reset-paper` starts a fresh
 * paper account (the old one and its journal move to `<dataDir>/archive/`), after RESET typed
 * on a terminal or with `--yes`; refused in live mode (docs/paper-account.md).
 *
 * SIGINT/SIGTERM stop gracefully; one during start-up is honoured once start-up completes (a
 * second one exits at once without a clean stop).
 *
 * Without `ENV_FILE` and without a `.env`, the settings come from `config/paper.env` (paper mode
 * only; said in one log line), so `npm install` then `npm start` serves the dashboard and `ctl`.
 *
 * Exit codes: 0 clean stop; 1 start-up failure (store locked, start-up reconciliation failed,
 * ...), a fatal error or a reset not confirmed; 2 invalid configuration or command line.
 */
import { loadConfig, PAPER_ENV_FALLBACK, redactConfig, scrubSecretEnv, secretValues, type BotConfig } from '../config/index.js';
import { SystemClock } from '../core/clock.js';
import { AuthError, ConfigError, StoreError, errorCode, errorMessage } from '../core/errors.js';
import { configSummary } from '../daemon/config-summary.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { DEFAULT_FOLD_WINDOW_MS } from '../observability/warning-fold.js';
import { loadConfiguredStrategies } from '../daemon/strategies.js';
import { startDaemon, type Daemon } from '../daemon/start.js';
import { resetPaperAccount } from '../daemon/paper-reset.js';
import { checkPaperStartPrices } from '../daemon/paper-venue.js';
import { confirmReset, parseDaemonArgs, processIo, refuseLiveReset, type DaemonArgs } from './daemon-args.js';

function refuse(err: ConfigError): never {
  process.stderr.write(`v4-bot: ${err.message}\n`);
  process.exit(2);
}

/** JSON lines (pretty on a terminal or with LOG_PRETTY=1), secrets cut out, repeated warnings folded. */
function daemonLogger(config: BotConfig, clock: SystemClock): Logger {
  return createLogger({
    level: config.logLevel,
    pretty: config.logPretty ?? process.stdout.isTTY === true,
    base: { app: 'v4-bot' },
    secrets: secretValues(config),
    fold: { clock, windowMs: DEFAULT_FOLD_WINDOW_MS },
  });
}

function parseArgs(): DaemonArgs {
  try {
    return parseDaemonArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) refuse(err);
    throw err;
  }
}

/** `--reset-paper`: refused live, confirmed, then the old account archived before the store opens. */
async function resetIfAsked(args: DaemonArgs, config: BotConfig, clock: SystemClock, logger: Logger): Promise<void> {
  if (!args.resetPaper) return;
  try {
    refuseLiveReset(config);
    if (!(await confirmReset(config.dataDir, args.yes, processIo()))) {
      process.stderr.write('v4-bot: --reset-paper not confirmed (RESET was not typed): nothing changed\n');
      process.exit(1);
    }
  } catch (err) {
    if (err instanceof ConfigError) refuse(err);
    throw err;
  }
  const r = resetPaperAccount(config.dataDir, clock);
  if (r.archiveDir === null) logger.warn({ dataDir: config.dataDir }, 'paper account reset: the data dir held no account, starting a new one');
  else logger.warn({ archiveDir: r.archiveDir, moved: r.moved }, 'paper account reset: the old account and its journal were archived, starting a new one');
}

/** The configuration, or exit 2 naming the key (paper mode also needs a start price per market). */
function loadChecked(): BotConfig {
  try {
    const config = loadConfig({ env: process.env, cwd: process.cwd(), fallbackEnvFile: PAPER_ENV_FALLBACK });
    if (config.mode === 'paper') checkPaperStartPrices(config);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) refuse(err);
    throw err;
  }
}

async function main(): Promise<void> {
  const args = parseArgs();
  const config = loadChecked();
  // The secrets now live in the config (as Secret values); nothing later (a strategy, a library,
  // a child process) can read them from the environment.
  scrubSecretEnv(process.env);
  const clock = new SystemClock();
  const logger = daemonLogger(config, clock);
  if (config.envFileFallback) logger.info({ envFile: config.envFile }, `no .env: using ${PAPER_ENV_FALLBACK} (paper mode)`);
  for (const w of config.warnings) logger.warn({ code: w.code, subject: w.subject }, w.message);
  let strategies;
  try {
    strategies = await loadConfiguredStrategies(config);
  } catch (err) {
    if (err instanceof ConfigError) refuse(err);
    throw err;
  }
  logger.info(configSummary(config, strategies), 'configuration loaded');
  logger.debug({ config: redactConfig(config) }, 'configuration (full, redacted)');
  try {
    await resetIfAsked(args, config, clock, logger);
  } catch (err) {
    logger.fatal({ err, code: errorCode(err) }, 'paper account reset failed');
    logger.flush();
    process.stderr.write(`v4-bot: --reset-paper failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
    process.exit(1);
  }

  // The Clock's timers are unref'd so they never keep a process alive by themselves; the daemon
  // must live until told to stop, even while it only waits on a retry back-off during start-up.
  // eslint-disable-next-line no-restricted-globals -- a keep-alive handle, not timing logic
  setInterval(() => undefined, 1 << 30);

  let daemon: Daemon | null = null;
  let exiting = false;
  // A stop signal during start-up waits for start-up to complete, then stops cleanly (store
  // closed, lock released): start-up can already trade, e.g. onFill for the fills a continued
  // paper account made while the daemon was down. A second signal exits at once.
  let deferred: { signal: string; code: number } | null = null;
  const finish = (stopping: Promise<void>, signal: string, code: number): void => {
    const done = stopping.then(
      () => {
        logger.info({ signal, code }, 'exit');
        logger.flush();
        process.exit(code);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while stopping');
        logger.flush();
        process.exit(1);
      },
    );
    void done;
  };
  const shutdown = (signal: string, code: number): void => {
    if (daemon === null && !exiting && (signal === 'SIGINT' || signal === 'SIGTERM')) {
      if (deferred !== null) {
        logger.warn({ signal }, 'second signal during start-up: exiting without a clean stop');
        logger.flush();
        process.exit(1);
      }
      deferred = { signal, code };
      logger.warn({ signal }, 'signal during start-up: stopping cleanly once start-up completes (signal again to exit at once)');
      return;
    }
    if (exiting) return;
    exiting = true;
    finish(daemon === null ? Promise.resolve() : daemon.stop(signal), signal, code);
  };
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  process.on('SIGTERM', () => shutdown('SIGTERM', 0));
  // Strategy hooks run in worker threads (src/engine/sandbox-worker/): their uncaught errors end
  // their worker and quarantine the instance, they never reach these handlers. A module's own
  // top-level code runs here: its faults quarantine that strategy, not the bot.
  process.on('unhandledRejection', (reason) => {
    if (daemon?.strategyFault(reason) === true) return void logger.error({ err: reason }, 'strategy fault outside its hooks: quarantined');
    logger.error({ err: reason, code: errorCode(reason) }, 'unhandled rejection');
    if (reason instanceof StoreError || reason instanceof AuthError) daemon?.halt(`${errorCode(reason)}: ${errorMessage(reason).slice(0, 120)}`);
  });
  process.on('uncaughtException', (err) => {
    if (daemon?.strategyFault(err) === true) return void logger.error({ err }, 'strategy fault outside its hooks: quarantined');
    logger.fatal({ err, code: errorCode(err) }, 'uncaught exception: stopping');
    daemon?.halt(`uncaught ${errorCode(err)}`);
    shutdown('uncaughtException', 1);
  });

  try {
    daemon = await startDaemon({ config, clock, logger, strategies, resumeTrading: args.resumeTrading });
  } catch (err) {
    logger.fatal({ err, code: errorCode(err) }, 'start-up failed: refusing to trade');
    logger.flush();
    process.stderr.write(`v4-bot: start-up failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  }
  if (exiting) {
    await daemon.stop('fault during start-up');
    return;
  }
  if (deferred !== null) {
    const { signal, code } = deferred;
    exiting = true;
    finish(daemon.stop(`${signal} during start-up`), signal, code);
    return;
  }
  // pm2 `wait_ready`: online only after start-up reconciliation completed.
  process.send?.('ready');
}

main().catch((err: unknown) => {
  process.stderr.write(`v4-bot: fatal: ${errorCode(err)}: ${errorMessage(err)}\n`);
  process.exit(1);
});
