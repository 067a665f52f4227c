/**
 * pino logger with redaction. Secrets never reach a log line: keys, secrets, signatures and
 * signed payloads are censored by path wherever they appear (top level or one object deep), and
 * the HTTP layer never hands raw requests or library errors to the logger in the first place.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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
}

export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: settings.base ?? {},
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  if (settings.destination !== undefined) return pino(options, settings.destination);
  if (settings.pretty === true) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
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
