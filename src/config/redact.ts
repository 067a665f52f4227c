/**
 * A config dump safe to log or print: secrets replaced, Decimals as strings, nothing else
 * changed. Works on any object so a future secret-bearing field is caught by its name too.
 */
import { Secret, REDACTED } from './secret.js';
import type { BotConfig } from './load.js';

const SECRET_NAME_RE = /secret|apikey|api_key|password|token|signature/i;

function redactValue(value: unknown, key: string): unknown {
  if (value instanceof Secret) return REDACTED;
  if (SECRET_NAME_RE.test(key) && value !== null && value !== undefined) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, ''));
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as () => unknown).call(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, k);
    return out;
  }
  return value;
}

/** Plain JSON-ready copy of the config with every secret replaced by `[redacted]`. */
export function redactConfig(config: BotConfig): Record<string, unknown> {
  return redactValue(config, '') as Record<string, unknown>;
}
