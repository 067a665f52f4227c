/**
 * `npm run optimize -- --prices DIR --space FILE --objective NAME --out DIR [...]`: tunes one
 * strategy instance's params with real backtests (docs/optimize.md; `--help` lists every flag).
 * A progress bar on stderr when it is a terminal, a summary line otherwise, then the one-screen
 * summary. Ctrl-C stops cleanly: finished trials stay in the study file and the same command
 * continues. Exit codes: 0 done; 1 the study failed; 2 bad flags, config, space or prices; 130
 * interrupted.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { ConfigError, errorCode, errorMessage } from '../core/errors.js';
import { createLogger } from '../observability/logger.js';
import { parseOptimizeArgs } from '../optimize/args.js';
import { HELP, progressBar, progressLine, summary } from '../optimize/cli-text.js';
import { RedisExecutor } from '../optimize/redis-executor.js';
import { optimize } from '../optimize/run.js';
import { SpaceError } from '../optimize/space.js';
import { StudyMismatchError } from '../optimize/study-store.js';
import type { StudyProgress } from '../optimize/study.js';

/** Refusals of the inputs: exit code 2, like a bad config. */
function isInputError(err: unknown): boolean {
  return err instanceof ConfigError || err instanceof SpaceError || err instanceof StudyMismatchError;
}

function fail(err: unknown): never {
  if (isInputError(err)) {
    process.stderr.write(`v4-bot optimize: ${errorMessage(err)}\n`);
    process.exit(2);
  }
  process.stderr.write(`v4-bot optimize: failed: ${errorCode(err)}: ${errorMessage(err)}\n`);
  process.exit(1);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'worker') {
    // Its own flags and --help (src/cli/optimize-worker.ts).
    const { optimizeWorker } = await import('./optimize-worker.js');
    return optimizeWorker(argv.slice(1));
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const args = parseOptimizeArgs(argv);
  const abort = new AbortController();
  // The first Ctrl-C stops the study cleanly; a second one leaves at once.
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write('\nv4-bot optimize: stopping; finished trials are kept (Ctrl-C again to leave at once)\n');
    abort.abort();
  });
  const tty = process.stderr.isTTY === true;
  let started = performance.now();
  let last: StudyProgress | null = null;
  const out = await optimize(args, {
    signal: abort.signal,
    redisExecutor: (url, study) => {
      // Warnings only on stderr, where the progress bar is; the URL's password never in a line.
      const password = new URL(url).password;
      const secrets = password === '' ? [] : [password, decodeURIComponent(password)];
      const logger = createLogger({ level: 'warn', destination: pino.destination(2), base: { app: 'v4-bot-optimize' }, secrets });
      return new RedisExecutor({ url, study, logger });
    },
    say: (line) => {
      process.stderr.write(`${line}\n`);
      started = performance.now();
    },
    onProgress: (p) => {
      last = p;
      if (tty) process.stderr.write(progressBar(p, performance.now() - started));
    },
  });
  if (tty && last !== null) process.stderr.write('\n');
  if (last !== null) process.stderr.write(progressLine(last, performance.now() - started));
  if (out.aborted) {
    process.stderr.write(`interrupted: ${out.done}/${out.total} trials finished and kept in ${out.studyFile}; run the same command to continue\n`);
    return 130;
  }
  process.stdout.write(summary(out.result, out.outDir, out.studyFile));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => fail(err),
);
