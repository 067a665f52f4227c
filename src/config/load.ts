/**
 * Loads the configuration: dotenv file (`ENV_FILE`, default `.env`), then the process
 * environment (which wins), then the `BOT_CONFIG` JSON file. Pure apart from reading files: it
 * never touches `process.env` and never makes a network call, so the daemon can refuse a bad
 * configuration before anything else happens (docs/failure-modes.md #15).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { configError, problemsFromIssues } from './errors.js';
import { envSchema, fileSchema, type EnvConfig, type FileConfig } from './schema.js';
import { Secret } from './secret.js';
import { NOTIFY_SECRET_ENV_VARS, notifyConfig, type NotifyConfig } from './notify.js';
import { jsonErrorLocation, jsonErrorReason } from './json-location.js';
import { unknownKeyWarnings } from './unknown-keys.js';
import { readEnvFile, type LoadConfigOptions } from './env-file.js';
import { checkApiBaseUrl, checkDataDir, checkEnvFile, type ConfigWarning } from './safety.js';

export { PAPER_ENV_FALLBACK } from './paper-fallback.js';
export type { LoadConfigOptions } from './env-file.js';

/** Live venue credentials; present only in live mode. */
export interface LiveApiConfig {
  baseUrl: string;
  apiKey: Secret;
  apiSecret: Secret;
}

/** The whole validated configuration. */
export interface BotConfig extends FileConfig {
  mode: 'paper' | 'live';
  /** Absolute path of the config file that was read. */
  configPath: string;
  /** Absolute path of the env file that was read, or null when none. */
  envFile: string | null;
  /** True when `envFile` is the paper fallback (`config/paper.env`), read because there was no `.env`. */
  envFileFallback: boolean;
  /** Absolute store directory. */
  dataDir: string;
  /** Health/metrics/dashboard port; 0 = off. */
  httpPort: number;
  /** Address the HTTP server binds to (`BOT_HTTP_HOST`, default 127.0.0.1). */
  httpHost: string;
  /** Control API token (`BOT_CONTROL_TOKEN`), or null (loopback only: the daemon makes a per-run one). */
  controlToken: Secret | null;
  logLevel: string;
  /** `LOG_PRETTY`: true / false, or null to decide by whether stdout is a terminal. */
  logPretty: boolean | null;
  /** Set in live mode only (paper mode uses the embedded simulator's account). */
  api: LiveApiConfig | null;
  /** Nonce mode of the API client (`NONCE_MODE`). */
  nonceMode: 'strict' | 'window';
  /** Shared rate-limit store (`RATE_LIMIT_REDIS_URL`), or null for per-process budgets. */
  rateLimitRedisUrl: Secret | null;
  /** Notifications (webhook, Telegram), or null when none is configured. */
  notify: NotifyConfig | null;
  /** Safety warnings found while loading (src/config/safety.ts); the daemon logs each with its code. */
  warnings: ConfigWarning[];
}

const ENV_KEYS = Object.keys(envSchema.shape);

function pickEnv(fileVars: Record<string, string>, env: LoadConfigOptions['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ENV_KEYS) {
    const v = env[key] ?? fileVars[key];
    // An empty assignment (`API_KEY=`) means "not set", so defaults and the live check apply.
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}

function readConfigFile(file: string, shownAs: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw configError('environment', [{ key: 'BOT_CONFIG', expected: 'a readable JSON config file', found: `${JSON.stringify(shownAs)} (${code})` }]);
  }
  return parseConfigText(text, shownAs);
}

function parseConfigText(text: string, shownAs: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const message = err instanceof Error ? err.message : 'unknown';
    const { line, column } = jsonErrorLocation(text, message);
    throw configError(shownAs, [{ key: '(root)', expected: 'valid JSON', found: `a syntax error at line ${line}, column ${column} (${jsonErrorReason(message)})` }]);
  }
}

/** Processes sharing one key and budget (Redis) cannot keep strict nonces in order of arrival. */
function checkNonceMode(env: EnvConfig, picked: Record<string, string>): void {
  if (env.RATE_LIMIT_REDIS_URL === undefined || env.NONCE_MODE !== 'strict') return;
  throw configError('environment', [
    {
      key: 'NONCE_MODE',
      expected: 'window when RATE_LIMIT_REDIS_URL is set (processes sharing one API key cannot keep strict nonces in order)',
      found: picked['NONCE_MODE'] === undefined ? 'nothing (strict by default)' : '"strict"',
    },
  ]);
}

const LOOPBACK_BIND = /^(127(?:\.\d{1,3}){3}|localhost|::1|\[::1\])$/i;

/** True when `host` is a loopback address (the only binding allowed without a control token). */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BIND.test(host);
}

/** Binding the HTTP server beyond loopback exposes the dashboard and control: a token is required. */
function checkHttpBinding(env: EnvConfig): void {
  if (isLoopbackBind(env.BOT_HTTP_HOST) || env.BOT_CONTROL_TOKEN !== undefined) return;
  throw configError('environment', [
    {
      key: 'BOT_CONTROL_TOKEN',
      expected: `a token of at least 24 characters when BOT_HTTP_HOST is not loopback (the dashboard and control API would be open on ${env.BOT_HTTP_HOST})`,
      found: 'nothing (the key is missing)',
    },
  ]);
}

/**
 * Reads and validates everything. Throws `ConfigError` (message names key, expectation and
 * found value; never a secret's value) on any problem.
 */
export function loadConfig(options: LoadConfigOptions): BotConfig {
  const { vars, file: envFile, fallback: envFileFallback } = readEnvFile(options);
  const picked = pickEnv(vars, options.env);
  const envParsed = envSchema.safeParse(picked, { reportInput: true });
  if (!envParsed.success) throw configError('environment', problemsFromIssues(envParsed.error.issues));
  const env = envParsed.data;

  const holdsSecret = ['API_KEY', 'API_SECRET', 'RATE_LIMIT_REDIS_URL', 'BOT_CONTROL_TOKEN', ...NOTIFY_SECRET_ENV_VARS].some((k) => vars[k] !== undefined);
  const warnings = [...checkEnvFile(envFile, env.BOT_MODE, holdsSecret), ...checkApiBaseUrl(env.API_BASE_URL, env.BOT_MODE)];
  let api: LiveApiConfig | null = null;
  if (env.BOT_MODE === 'live') {
    const missing = (['API_BASE_URL', 'API_KEY', 'API_SECRET'] as const).filter((k) => env[k] === undefined);
    if (missing.length > 0) {
      throw configError(
        'environment',
        missing.map((k) => ({ key: k, expected: 'a non-empty value (BOT_MODE=live needs API_BASE_URL, API_KEY and API_SECRET)', found: 'nothing (the key is missing)' })),
      );
    }
    api = { baseUrl: env.API_BASE_URL as string, apiKey: new Secret(env.API_KEY as string), apiSecret: new Secret(env.API_SECRET as string) };
  }

  checkNonceMode(env, picked);
  checkHttpBinding(env);
  const notify = notifyConfig(env);

  const configPath = path.resolve(options.cwd, env.BOT_CONFIG);
  const raw = options.configText === undefined ? readConfigFile(configPath, env.BOT_CONFIG) : parseConfigText(options.configText, env.BOT_CONFIG);
  const parsed = fileSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw configError(env.BOT_CONFIG, problemsFromIssues(parsed.error.issues));

  const dataDir = path.resolve(options.cwd, env.BOT_DATA_DIR);
  return {
    ...parsed.data,
    mode: env.BOT_MODE,
    configPath,
    envFile,
    envFileFallback,
    dataDir,
    httpPort: env.BOT_HTTP_PORT,
    httpHost: env.BOT_HTTP_HOST,
    controlToken: env.BOT_CONTROL_TOKEN === undefined ? null : new Secret(env.BOT_CONTROL_TOKEN),
    logLevel: env.LOG_LEVEL,
    logPretty: env.LOG_PRETTY === undefined ? null : env.LOG_PRETTY === '1',
    api,
    nonceMode: env.NONCE_MODE,
    rateLimitRedisUrl: env.RATE_LIMIT_REDIS_URL === undefined ? null : new Secret(env.RATE_LIMIT_REDIS_URL),
    notify,
    warnings: [...unknownKeyWarnings(Object.keys(vars), Object.keys(options.env), ENV_KEYS, envFile), ...warnings, ...checkDataDir(dataDir)],
  };
}

/** True for the error `loadConfig` and the strategy loader throw on bad configuration. */
export function isConfigError(err: unknown): err is ConfigError {
  return err instanceof ConfigError;
}
