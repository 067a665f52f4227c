/**
 * What `ctl` and `status` need of the configuration: the mode, the data dir, and where the
 * daemon's HTTP server is (port, host, control token). All environment settings, read as
 * `loadConfig` reads them (the env file or the paper fallback, then the environment, which wins;
 * an empty value is unset) and checked by the same rules (src/config/env-rules.ts), but without
 * the `BOT_CONFIG` file and without the schemas: loading zod is most of these commands' start-up,
 * and a pause button must answer at once.
 */
import path from 'node:path';
import { showValue } from '../core/show.js';
import { readEnvFile, type LoadConfigOptions } from './env-file.js';
import { BOT_MODES, CONTROL_TOKEN_EXPECTED, CONTROL_TOKEN_MIN, ENV_DEFAULTS, HOST_EXPECTED, HOST_RE, MAX_PORT, PORT_EXPECTED, PORT_RE, type BotMode } from './env-rules.js';
import { configError, type ConfigProblem } from './problems.js';
import { Secret } from './secret.js';

export interface CommandSettings {
  mode: BotMode;
  /** Absolute store directory. */
  dataDir: string;
  /** Absolute path of the env file that was read, or null when none. */
  envFile: string | null;
  /** True when `envFile` is the paper fallback, read because there was no `.env`. */
  envFileFallback: boolean;
  httpPort: number;
  httpHost: string;
  controlToken: Secret | null;
}

type Picked = (key: string) => string | undefined;

function mode(get: Picked, problems: ConfigProblem[]): BotMode {
  const v = get('BOT_MODE') ?? ENV_DEFAULTS.BOT_MODE;
  if ((BOT_MODES as readonly string[]).includes(v)) return v as BotMode;
  problems.push({ key: 'BOT_MODE', expected: `one of ${BOT_MODES.map((m) => JSON.stringify(m)).join(', ')}`, found: showValue(v) });
  return ENV_DEFAULTS.BOT_MODE;
}

function port(get: Picked, problems: ConfigProblem[]): number {
  const v = get('BOT_HTTP_PORT');
  if (v === undefined) return ENV_DEFAULTS.BOT_HTTP_PORT;
  const n = PORT_RE.test(v) ? Number.parseInt(v, 10) : Number.NaN;
  if (n <= MAX_PORT) return n;
  problems.push({ key: 'BOT_HTTP_PORT', expected: PORT_EXPECTED, found: showValue(v) });
  return ENV_DEFAULTS.BOT_HTTP_PORT;
}

function host(get: Picked, problems: ConfigProblem[]): string {
  const v = get('BOT_HTTP_HOST') ?? ENV_DEFAULTS.BOT_HTTP_HOST;
  if (HOST_RE.test(v)) return v;
  problems.push({ key: 'BOT_HTTP_HOST', expected: HOST_EXPECTED, found: showValue(v) });
  return ENV_DEFAULTS.BOT_HTTP_HOST;
}

function token(get: Picked, problems: ConfigProblem[]): Secret | null {
  const v = get('BOT_CONTROL_TOKEN');
  if (v === undefined) return null;
  if (v.length >= CONTROL_TOKEN_MIN) return new Secret(v);
  problems.push({ key: 'BOT_CONTROL_TOKEN', expected: CONTROL_TOKEN_EXPECTED, found: 'a value (hidden)' });
  return null;
}

/** Reads and checks the settings; throws `ConfigError` naming every bad key (never a token's value). */
export function readCommandSettings(options: LoadConfigOptions): CommandSettings {
  const { vars, file, fallback } = readEnvFile(options);
  const get: Picked = (key) => {
    const v = options.env[key] ?? vars[key];
    return v === undefined || v === '' ? undefined : v;
  };
  const problems: ConfigProblem[] = [];
  const out: CommandSettings = {
    mode: mode(get, problems),
    dataDir: path.resolve(options.cwd, get('BOT_DATA_DIR') ?? ENV_DEFAULTS.BOT_DATA_DIR),
    envFile: file,
    envFileFallback: fallback,
    httpPort: port(get, problems),
    httpHost: host(get, problems),
    controlToken: token(get, problems),
  };
  if (problems.length > 0) throw configError('environment', problems);
  return out;
}
