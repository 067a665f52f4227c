/**
 * The secret values of a loaded configuration as plain strings, for the logger's last-line
 * scrubber (it cuts them out of every line) and nothing else: the API key and secret, and the
 * `RATE_LIMIT_REDIS_URL` with the password it may carry (as written and URL-decoded), and the
 * control token (`BOT_CONTROL_TOKEN`), and the notification secrets: webhook URL and signing key,
 * Telegram bot token.
 */
import type { BotConfig } from './load.js';
import { NOTIFY_SECRET_ENV_VARS } from './notify.js';

function urlCredentials(url: string): string[] {
  try {
    const u = new URL(url);
    const out = [url];
    if (u.password !== '') out.push(u.password, decodeURIComponent(u.password));
    return out;
  } catch {
    return [url];
  }
}

function notifySecrets(notify: BotConfig['notify'] | undefined): string[] {
  if (notify === null || notify === undefined) return [];
  const out: string[] = [];
  if (notify.webhook !== null) out.push(...urlCredentials(notify.webhook.url.reveal()));
  if (notify.webhook?.secret) out.push(notify.webhook.secret.reveal());
  if (notify.telegram !== null) out.push(notify.telegram.botToken.reveal());
  return out;
}

export function secretValues(
  config: Pick<BotConfig, 'api' | 'rateLimitRedisUrl'> & { controlToken?: BotConfig['controlToken'] } & Partial<Pick<BotConfig, 'notify'>>,
): string[] {
  const out: string[] = [];
  if (config.controlToken != null) out.push(config.controlToken.reveal());
  if (config.api !== null) out.push(config.api.apiKey.reveal(), config.api.apiSecret.reveal());
  if (config.rateLimitRedisUrl !== null) out.push(...urlCredentials(config.rateLimitRedisUrl.reveal()));
  out.push(...notifySecrets(config.notify));
  return [...new Set(out)];
}

/** The environment variables that hold secrets: removed from `process.env` once the config is loaded. */
export const SECRET_ENV_VARS = ['API_KEY', 'API_SECRET', 'RATE_LIMIT_REDIS_URL', 'BOT_CONTROL_TOKEN', ...NOTIFY_SECRET_ENV_VARS] as const;

/** Deletes the secret variables from `env` (the daemon passes `process.env`), so nothing later can read them there. */
export function scrubSecretEnv(env: Record<string, string | undefined>): void {
  for (const key of SECRET_ENV_VARS) delete env[key];
}
