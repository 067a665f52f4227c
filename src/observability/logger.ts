/**
 * pino logger with redaction. Secrets never reach a log line: keys, secrets, signatures and
 * signed payloads are censored by path wherever they appear (top level or one object deep), and
 * the HTTP layer never hands raw requests or library errors to the logger in the first place.
 * As a last line of defence, the configured secret values themselves (`secrets`) are replaced by
 * `[redacted]` wherever they occur in a finished line: message, nested field, error text.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { warningFolder, type FoldSettings } from './warning-fold.js';

export type { Logger } from 'pino';

const SECRET_KEYS = [
  'apiKey',
  'apiSecret',
  'secret',
  'key',
  'API_KEY',
  'API_SECRET',
  'signature',
  'payload',
  'authorization',
  'password',
  'token',
  'x-txc-apikey',
  'x-txc-payload',
  'x-txc-signature',
  'X-TXC-APIKEY',
  'X-TXC-PAYLOAD',
  'X-TXC-SIGNATURE',
  'body',
];

/** Redaction paths: each sensitive key at the top level, one and two objects deep. */
export const REDACT_PATHS: string[] = SECRET_KEYS.flatMap((k) => {
  const prop = /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `["${k}"]`;
  const top = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  return [top, `*${prop}`, `*.*${prop}`];
});

export interface LoggerSettings {
  level?: string;
  /** Pretty, human-readable output (pino-pretty) instead of JSON lines. */
  pretty?: boolean;
  /** Where lines go; defaults to stdout. Tests pass a collecting stream. */
  destination?: DestinationStream;
  /** Bound fields on every line. */
  base?: Record<string, unknown>;
  /** Secret values (API key and secret, credentials in URLs) cut out of every line, wherever they appear. */
  secrets?: readonly string[];
  /** Fold repeated identical warnings (src/observability/warning-fold.ts); off when absent. */
  fold?: FoldSettings;
}

/** Values shorter than this are not scrubbed by value (they would cut ordinary words out of lines). */
export const MIN_SCRUBBED_LENGTH = 4;

/**
 * A function that replaces every occurrence of each value in a finished line, in the forms a
 * line may hold it: as written, JSON-escaped and URL-encoded.
 */
export function secretScrubber(values: readonly string[]): (line: string) => string {
  const forms = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_SCRUBBED_LENGTH) continue;
    forms.add(v).add(JSON.stringify(v).slice(1, -1)).add(encodeURIComponent(v));
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (line) => line;
  return (line) => ordered.reduce((out, form) => (out.includes(form) ? out.split(form).join('[redacted]') : out), line);
}

export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: settings.base ?? {},
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  const hooks: NonNullable<LoggerOptions['hooks']> = {};
  if (settings.secrets !== undefined && settings.secrets.length > 0) hooks.streamWrite = secretScrubber(settings.secrets);
  if (settings.fold !== undefined) hooks.logMethod = warningFolder(settings.fold);
  if (Object.keys(hooks).length > 0) options.hooks = hooks;
  if (settings.destination !== undefined) return pino(options, settings.destination);
  if (settings.pretty === true) {
    // In this thread and synchronous (not a transport worker), so the last lines before an exit
    // are written; colours only on a terminal (pm2's log files stay plain text).
    return pino(options, PinoPretty({ colorize: process.stdout.isTTY === true, sync: true, destination: 1 }));
  }
  return pino(options);
}

/**
 * Errors are logged as name, code, message and safe context only: never the attached request,
 * headers or response body a library error may carry.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const out: Record<string, unknown> = { type: err.name, message: err.message };
    const e = err as Error & { code?: unknown; context?: unknown };
    if (typeof e.code === 'string' || typeof e.code === 'number') out['code'] = e.code;
    if (e.context !== undefined && typeof e.context === 'object') out['context'] = e.context;
    if (err.stack !== undefined) out['stack'] = err.stack.split('\n').slice(0, 6).join('\n');
    return out;
  }
  return { message: String(err) };
}

/** A logger that drops everything (for tests and tools that do not log). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
