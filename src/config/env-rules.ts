/**
 * The rules of the environment keys the commands read on their own (src/config/command-settings.ts),
 * shared with the zod schema (src/config/schema.ts `envSchema`) so both accept and refuse the same.
 */

export const BOT_MODES = ['paper', 'live'] as const;
export type BotMode = (typeof BOT_MODES)[number];

export const ENV_DEFAULTS = {
  BOT_MODE: 'paper',
  BOT_CONFIG: 'config/bot.json',
  BOT_DATA_DIR: './data',
  BOT_HTTP_PORT: 0,
  BOT_HTTP_HOST: '127.0.0.1',
} as const;

export const PORT_RE = /^\d{1,5}$/;
export const MAX_PORT = 65_535;
export const PORT_EXPECTED = 'a port number 0..65535';

export const HOST_RE = /^[A-Za-z0-9.:[\]-]{1,253}$/;
export const HOST_EXPECTED = 'a host name or IP address such as 127.0.0.1';

export const CONTROL_TOKEN_MIN = 24;
export const CONTROL_TOKEN_EXPECTED = `a token of at least ${CONTROL_TOKEN_MIN} characters (e.g. openssl rand -hex 24)`;
