/**
 * Notification settings: defaults, the event list, pairs that need each other, refusals that
 * name the key and never echo a secret, and the secrets registered with the scrubber, the
 * redacted dump and the environment scrub.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTIFY_EVENT_KINDS, SECRET_ENV_VARS, loadConfig, redactConfig, scrubSecretEnv, secretValues } from '../../../src/config/index.js';
import { NOTIFY_KINDS } from '../../../src/notify/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

const TOKEN = '123456789:AAH-secretTokenValue_0123456789abcdef';

function load(env: Record<string, string>) {
  const cwd = tempDir('v4bot-notify-config-');
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(validFileConfig()));
  return loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json', ...env } });
}

describe('notification config', () => {
  it('is off without a webhook URL or Telegram keys', () => {
    expect(load({}).notify).toBeNull();
  });

  it('reads both sinks with their defaults', () => {
    const cfg = load({ NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/abc', NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '-100123' }).notify;
    expect(cfg?.webhook?.url.reveal()).toBe('https://hooks.example.com/abc');
    expect(cfg?.webhook?.secret).toBeNull();
    expect(cfg?.telegram?.baseUrl).toBe('https://api.telegram.org');
    expect(cfg?.telegram?.chatId).toBe('-100123');
    expect(cfg?.events).toEqual([...NOTIFY_EVENT_KINDS]);
    expect(cfg?.dailySummaryUtc).toBe('00:00');
    expect(cfg?.refusalWindowMs).toBe(15 * 60_000);
  });

  it('NOTIFY_EVENTS picks kinds, per-sink keys override it; the config list is the notifier’s', () => {
    expect(load({ NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_EVENTS: 'fills, alerts' }).notify?.webhook?.events).toEqual(['fills', 'alerts']);
    const both = load({ NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '1', NOTIFY_EVENTS: 'fills', NOTIFY_TELEGRAM_EVENTS: 'alerts,trading_state' }).notify;
    expect(both?.webhook?.events).toEqual(['fills']);
    expect(both?.telegram?.events).toEqual(['alerts', 'trading_state']);
    expect([...NOTIFY_EVENT_KINDS]).toEqual([...NOTIFY_KINDS]);
  });

  it.each([
    ['NOTIFY_WEBHOOK_URL', { NOTIFY_WEBHOOK_URL: 'not a url' }],
    ['NOTIFY_WEBHOOK_URL', { NOTIFY_WEBHOOK_URL: 'ftp://example.com/x' }],
    ['NOTIFY_TELEGRAM_BASE_URL', { NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '1', NOTIFY_TELEGRAM_BASE_URL: 'telegram' }],
    ['NOTIFY_TELEGRAM_CHAT_ID', { NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN }],
    ['NOTIFY_TELEGRAM_BOT_TOKEN', { NOTIFY_TELEGRAM_CHAT_ID: '42' }],
    ['NOTIFY_WEBHOOK_URL', { NOTIFY_WEBHOOK_SECRET: 'a-long-enough-secret' }],
    ['NOTIFY_EVENTS', { NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_EVENTS: 'fills,everything' }],
    ['NOTIFY_TELEGRAM_EVENTS', { NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '1', NOTIFY_TELEGRAM_EVENTS: 'fill' }],
    ['NOTIFY_DAILY_SUMMARY_UTC', { NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_DAILY_SUMMARY_UTC: '7:30' }],
    ['NOTIFY_REFUSAL_WINDOW_MIN', { NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_REFUSAL_WINDOW_MIN: '0' }],
  ])('refuses a bad %s, naming the key', (key, env) => {
    const err = configErrorOf(() => load(env));
    expect(err.message).toContain(`${key}:`);
  });

  it('a malformed token or secret is refused without echoing it', () => {
    const badToken = 'not-a-token-but-secret-looking-0123456789';
    const err = configErrorOf(() => load({ NOTIFY_TELEGRAM_BOT_TOKEN: badToken, NOTIFY_TELEGRAM_CHAT_ID: '1' }));
    expect(err.message).toContain('NOTIFY_TELEGRAM_BOT_TOKEN');
    expect(err.message).not.toContain(badToken);
    const short = configErrorOf(() => load({ NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:1/h', NOTIFY_WEBHOOK_SECRET: 'shortsecret' }));
    expect(short.message).toContain('NOTIFY_WEBHOOK_SECRET');
    expect(short.message).not.toContain('shortsecret');
    // An invalid webhook URL may still hold its secret path: named, not shown.
    const badUrl = configErrorOf(() => load({ NOTIFY_WEBHOOK_URL: 'hooks.example.com/services/XXXXsecretpath' }));
    expect(badUrl.message).toContain('NOTIFY_WEBHOOK_URL');
    expect(badUrl.message).not.toContain('XXXXsecretpath');
  });

  it('registers the token, webhook URL and signing secret as secrets', () => {
    const url = 'https://hooks.example.com/services/T000/B000/XXXXsecretpath';
    const cfg = load({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_SECRET: 'a-long-enough-secret', NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '1' });
    expect(secretValues(cfg)).toEqual(expect.arrayContaining([url, 'a-long-enough-secret', TOKEN]));
    const dump = JSON.stringify(redactConfig(cfg));
    for (const s of [url, 'XXXXsecretpath', 'a-long-enough-secret', TOKEN]) expect(dump).not.toContain(s);
    expect(SECRET_ENV_VARS).toEqual(expect.arrayContaining(['NOTIFY_WEBHOOK_URL', 'NOTIFY_WEBHOOK_SECRET', 'NOTIFY_TELEGRAM_BOT_TOKEN']));
    const env: Record<string, string | undefined> = { NOTIFY_TELEGRAM_BOT_TOKEN: TOKEN, NOTIFY_TELEGRAM_CHAT_ID: '1' };
    scrubSecretEnv(env);
    expect(env).toEqual({ NOTIFY_TELEGRAM_CHAT_ID: '1' });
  });
});
