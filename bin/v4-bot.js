#!/usr/bin/env node
/**
 * `v4-bot <command> [args]` (`npx v4-bot …`, and the npm scripts `ctl`, `status`, `prices`,
 * `backtest`, `optimize`, `sim`): checks that `dist/` is current, then runs the built command. It never
 * builds: a build takes seconds, a pause button must answer at once. When `dist/` is missing or
 * older than the sources it says so and what to run, exit code 2. Plain JavaScript importing
 * only node: modules, so the check costs a stat walk before any heavy module loads.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleReason } from './build-check.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Command → built entry point and a one-line summary. */
const COMMANDS = {
  start: ['daemon', 'the daemon in the foreground (`npm start` builds first, then runs this)'],
  ctl: ['ctl', 'steer the running daemon: pause|resume|unquarantine <strategy>, halt, resume-trading, cancel-all'],
  status: ['status', 'what the bot holds and has done, read from its store [--json] [--data-dir DIR]'],
  prices: ['prices', 'recorded prices and candles: prices export [--out FILE|DIR] [--from T] [--to T] [--candles TF] | prices import FILE --market M'],
  backtest: ['backtest', 'run the configured strategies over price CSV: --prices FILE|DIR [--config FILE] ...'],
  optimize: ['optimize', 'tune a strategy\'s params with backtests: --prices DIR --space FILE --objective NAME --out DIR ...'],
  sim: ['sim', 'the exchange simulator on its own, over HTTP'],
};

function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([c, [, what]]) => `  ${c.padEnd(width)}  ${what}`);
  return ['usage: v4-bot <command> [args]   (v4-bot <command> --help for a command\'s own flags)', '', 'commands:', ...lines, ''].join('\n');
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process[command === undefined ? 'stderr' : 'stdout'].write(usage());
  process.exit(command === undefined ? 2 : 0);
}
const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command][0] : undefined;
if (entry === undefined) {
  process.stderr.write(`v4-bot: unknown command ${JSON.stringify(command)}\n${usage()}`);
  process.exit(2);
}
const stale = staleReason(ROOT);
if (stale !== null) {
  process.stderr.write(`v4-bot: ${stale}.\nRun \`npm run build\` in ${ROOT}, then run the command again.\n`);
  process.exit(2);
}
const file = path.join(ROOT, 'dist', 'src', 'cli', `${entry}.js`);
// The commands read their flags from process.argv and recognise themselves by argv[1].
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(file).href);
