/**
 * `npm run ctl -- <action> [strategy]`: steers the running daemon through its control API
 * (docs/dashboard.md › Control). Port, bind address and token come from the daemon's own
 * environment settings (`ENV_FILE` or `.env` or `config/paper.env`, then the environment; the
 * `BOT_CONFIG` file is not read): `BOT_CONTROL_TOKEN`, or without it the per-run token the daemon
 * wrote to `<BOT_DATA_DIR>/control-token`.
 *
 * Exit codes: 0 done; 1 the daemon refused or the action failed (unknown strategy, not
 * quarantined, orders still open); 2 bad arguments or invalid configuration; 3 the daemon is not
 * reachable; 4 the token was refused.
 */
import { readCommandSettings, type CommandSettings } from '../config/command-settings.js';
import { PAPER_ENV_FALLBACK } from '../config/paper-fallback.js';
import { ConfigError, errorMessage } from '../core/errors.js';
// The two small modules, not console/index.js: that one brings the dashboard, the store and the
// engine's read models, which a pause button does not need.
import { readTokenFile, tokenFilePath } from '../console/auth.js';
import { CONTROL_ACTIONS, isControlAction } from '../console/control.js';

const USAGE = `usage: ctl <action> [strategy]
  pause <strategy>         no more ticks for the strategy (kept across restarts)
  resume <strategy>        ticks again
  unquarantine <strategy>  lifts a quarantine (the error budget starts afresh)
  halt                     trading state HALTED: only cancels leave
  resume-trading           trading state ACTIVE (like --resume-trading)
  cancel-all               cancels every open order of every strategy
  port and token: the daemon's settings (ENV_FILE or .env, else ${PAPER_ENV_FALLBACK}; then the environment)`;

const WITH_STRATEGY = new Set(['pause', 'resume', 'unquarantine']);
/** A cancel-all of many orders waits for each cancel's answer. */
const REQUEST_TIMEOUT_MS = 120_000;

export interface CtlArgs {
  action: string;
  strategy: string | null;
}

/** Parses `<action> [strategy]`; a string is the problem. */
export function parseCtlArgs(argv: readonly string[]): CtlArgs | string {
  const [action, strategy, ...rest] = argv;
  if (action === undefined) return 'missing action';
  if (!isControlAction(action)) return `unknown action ${JSON.stringify(action)} (expected one of ${CONTROL_ACTIONS.join(', ')})`;
  if (rest.length > 0) return `unexpected argument ${JSON.stringify(rest[0])}`;
  if (WITH_STRATEGY.has(action) && strategy === undefined) return `${action} needs a strategy id`;
  if (!WITH_STRATEGY.has(action) && strategy !== undefined) return `${action} takes no strategy (found ${JSON.stringify(strategy)})`;
  return { action, strategy: strategy ?? null };
}

/** Where to reach the daemon: a wildcard bind is reached on loopback. */
export function daemonUrl(config: Pick<CommandSettings, 'httpHost' | 'httpPort'>): string {
  const host = config.httpHost === '0.0.0.0' ? '127.0.0.1' : config.httpHost === '::' ? '[::1]' : config.httpHost.includes(':') && !config.httpHost.startsWith('[') ? `[${config.httpHost}]` : config.httpHost;
  return `http://${host}:${config.httpPort}`;
}

class CtlError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function tokenOf(config: CommandSettings): string {
  const configured = config.controlToken?.reveal();
  if (configured !== undefined) return configured;
  const run = readTokenFile(config.dataDir);
  if (run === null) throw new CtlError(`no control token: BOT_CONTROL_TOKEN is not set and ${tokenFilePath(config.dataDir)} does not exist (is the daemon running with this configuration?)`, 3);
  return run;
}

async function send(url: string, token: string, args: CtlArgs): Promise<{ status: number; body: { result?: string; message?: string } }> {
  let res: Response;
  try {
    res = await fetch(`${url}/api/control/${args.action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-bot-client': 'cli' },
      body: JSON.stringify(args.strategy === null ? {} : { strategy: args.strategy }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new CtlError(`daemon not reachable at ${url} (${errorMessage((err as { cause?: unknown }).cause ?? err)}): is it running, with BOT_HTTP_PORT set?`, 3);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as { result?: string; message?: string } };
  } catch {
    return { status: res.status, body: { message: text.slice(0, 200) || `HTTP ${res.status}` } };
  }
}

export interface CtlResult {
  code: number;
  out: string;
  err: string;
}

/** The one line saying the paper fallback was read (on stderr: stdout carries the answer). */
const fallbackNote = (config: CommandSettings): string => (config.envFileFallback ? `ctl: no .env: using ${PAPER_ENV_FALLBACK} (paper mode)\n` : '');

function outcome(args: CtlArgs, status: number, body: { result?: string; message?: string }): CtlResult {
  const line = `${args.action}${args.strategy === null ? '' : ` ${args.strategy}`}: ${body.message ?? body.result ?? `HTTP ${status}`}`;
  if (status === 401 || status === 403) return { code: 4, out: '', err: `ctl: refused (${status}): ${line}\n` };
  if (status !== 200 || body.result !== 'ok') return { code: 1, out: '', err: `ctl: ${line}\n` };
  return { code: 0, out: `${line}\n`, err: '' };
}

export async function ctl(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<CtlResult> {
  if (argv[0] === '--help' || argv[0] === '-h') return { code: 0, out: `${USAGE}\n`, err: '' };
  const args = parseCtlArgs(argv);
  if (typeof args === 'string') return { code: 2, out: '', err: `ctl: ${args}\n${USAGE}\n` };
  let note = '';
  try {
    // The environment settings only (no config file, no schemas): src/config/command-settings.ts.
    const config = readCommandSettings({ env, cwd, fallbackEnvFile: PAPER_ENV_FALLBACK });
    note = fallbackNote(config);
    if (config.httpPort <= 0) throw new CtlError('the daemon serves no control API: BOT_HTTP_PORT is 0 (off); set it (e.g. 9464) and restart the daemon', 2);
    const { status, body } = await send(daemonUrl(config), tokenOf(config), args);
    const r = outcome(args, status, body);
    return { ...r, err: note + r.err };
  } catch (err) {
    if (err instanceof CtlError) return { code: err.exitCode, out: '', err: `${note}ctl: ${err.message}\n` };
    return { code: err instanceof ConfigError ? 2 : 1, out: '', err: `ctl: ${errorMessage(err)}\n` };
  }
}

const invokedDirectly = process.argv[1] !== undefined && /ctl\.(js|ts)$/.test(process.argv[1]);
if (invokedDirectly) {
  void ctl(process.argv.slice(2), process.env, process.cwd()).then((r) => {
    process.stdout.write(r.out);
    process.stderr.write(r.err);
    process.exitCode = r.code;
  });
}
