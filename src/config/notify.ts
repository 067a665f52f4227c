/**
 * Notification settings from the environment (docs/notifications.md). The webhook URL, its
 * signing secret and the Telegram bot token are secrets: held as `Secret`, scrubbed from logs
 * (secret-values.ts), never echoed in a refusal. A bad value stops the daemon before any network
 * call with a message naming the key.
 */
import { z } from 'zod';
import { configError } from './errors.js';
import { Secret } from './secret.js';

/** Event families `NOTIFY_EVENTS` may name (the same list as src/notify/events.ts `NOTIFY_KINDS`). */
export const NOTIFY_EVENT_KINDS = ['fills', 'refusals', 'alerts', 'trading_state', 'quarantines', 'daily_summary'] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENT_KINDS)[number];

const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' });

const eventList = z
  .string()
  .transform((s) => s.split(',').map((k) => k.trim()).filter((k) => k !== ''))
  .refine((ks) => ks.length > 0 && ks.every((k) => k === 'all' || (NOTIFY_EVENT_KINDS as readonly string[]).includes(k)), {
    message: `a comma-separated list of ${NOTIFY_EVENT_KINDS.join(', ')} (or all)`,
  })
  .transform((ks): NotifyEventKind[] => (ks.includes('all') ? [...NOTIFY_EVENT_KINDS] : (ks as NotifyEventKind[])));

/** The notification keys of the environment schema (spread into `envSchema`). */
export const notifyEnvShape = {
  /** Webhook receiver; a JSON POST per event. Secret (such URLs often carry a token). */
  NOTIFY_WEBHOOK_URL: httpUrl.optional(),
  /** HMAC-SHA256 key: signs each webhook body (`X-V4Bot-Signature-256`). Secret. */
  NOTIFY_WEBHOOK_SECRET: z.string().min(16, { message: 'at least 16 characters' }).optional(),
  /** Telegram bot token from @BotFather (`123456:ABC...`). Secret. */
  NOTIFY_TELEGRAM_BOT_TOKEN: z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, { message: 'a bot token from @BotFather (digits, a colon, then letters)' }).optional(),
  /** Chat to post to: a numeric id (negative for groups) or a public channel's @name. */
  NOTIFY_TELEGRAM_CHAT_ID: z.string().regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, { message: 'a numeric chat id or a @channelname' }).optional(),
  /** Bot API base URL. Default https://api.telegram.org (tests point it at a local fake). */
  NOTIFY_TELEGRAM_BASE_URL: httpUrl.default('https://api.telegram.org'),
  /** Which events are sent. Default all. */
  NOTIFY_EVENTS: eventList.default([...NOTIFY_EVENT_KINDS]),
  /** Events for the webhook only; default NOTIFY_EVENTS. */
  NOTIFY_WEBHOOK_EVENTS: eventList.optional(),
  /** Events for Telegram only; default NOTIFY_EVENTS (e.g. `alerts,trading_state,quarantines,daily_summary` for a busy grid). */
  NOTIFY_TELEGRAM_EVENTS: eventList.optional(),
  /** UTC time of the daily summary, HH:MM. Default 00:00 (the summary of the day just ended). */
  NOTIFY_DAILY_SUMMARY_UTC: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'a UTC time HH:MM such as "07:30"' }).default('00:00'),
  /** Refusals of one strategy and reason: at most one message per this many minutes (then "+k more"). Default 15. */
  NOTIFY_REFUSAL_WINDOW_MIN: z
    .string()
    .regex(/^\d{1,4}$/, { message: 'whole minutes 1..1440' })
    .transform((s) => Number.parseInt(s, 10))
    .refine((n) => n >= 1 && n <= 1_440, { message: 'whole minutes 1..1440' })
    .default(15),
};

type NotifyEnv = z.output<z.ZodObject<typeof notifyEnvShape>>;

export interface NotifyConfig {
  webhook: { url: Secret; secret: Secret | null; events: NotifyEventKind[] } | null;
  telegram: { baseUrl: string; botToken: Secret; chatId: string; events: NotifyEventKind[] } | null;
  /** `NOTIFY_EVENTS`: the default of both sinks. */
  events: NotifyEventKind[];
  dailySummaryUtc: string;
  refusalWindowMs: number;
}

/** Keys that only make sense together: name the one that is missing. */
function checkPairs(env: NotifyEnv): void {
  const pairs: [keyof NotifyEnv, keyof NotifyEnv, string][] = [
    ['NOTIFY_TELEGRAM_BOT_TOKEN', 'NOTIFY_TELEGRAM_CHAT_ID', 'Telegram needs both the bot token and the chat id'],
    ['NOTIFY_TELEGRAM_CHAT_ID', 'NOTIFY_TELEGRAM_BOT_TOKEN', 'Telegram needs both the bot token and the chat id'],
    ['NOTIFY_WEBHOOK_SECRET', 'NOTIFY_WEBHOOK_URL', 'the webhook secret signs requests to NOTIFY_WEBHOOK_URL'],
  ];
  const missing = pairs.filter(([set, needed]) => env[set] !== undefined && env[needed] === undefined);
  if (missing.length === 0) return;
  throw configError(
    'environment',
    missing.map(([set, needed, why]) => ({ key: needed, expected: `a value when ${set} is set (${why})`, found: 'nothing (the key is missing)' })),
  );
}

/** The notification settings, or null when neither sink is configured. */
export function notifyConfig(env: NotifyEnv): NotifyConfig | null {
  checkPairs(env);
  const secret = env.NOTIFY_WEBHOOK_SECRET === undefined ? null : new Secret(env.NOTIFY_WEBHOOK_SECRET);
  const url = env.NOTIFY_WEBHOOK_URL;
  const webhook = url === undefined ? null : { url: new Secret(url), secret, events: env.NOTIFY_WEBHOOK_EVENTS ?? env.NOTIFY_EVENTS };
  const { NOTIFY_TELEGRAM_BOT_TOKEN: token, NOTIFY_TELEGRAM_CHAT_ID: chatId } = env;
  const telegram =
    token === undefined || chatId === undefined
      ? null
      : { baseUrl: env.NOTIFY_TELEGRAM_BASE_URL, botToken: new Secret(token), chatId, events: env.NOTIFY_TELEGRAM_EVENTS ?? env.NOTIFY_EVENTS };
  if (webhook === null && telegram === null) return null;
  const refusalWindowMs = env.NOTIFY_REFUSAL_WINDOW_MIN * 60_000;
  return { webhook, telegram, events: env.NOTIFY_EVENTS, dailySummaryUtc: env.NOTIFY_DAILY_SUMMARY_UTC, refusalWindowMs };
}

/** The env keys holding notification secrets. */
export const NOTIFY_SECRET_ENV_VARS = ['NOTIFY_WEBHOOK_URL', 'NOTIFY_WEBHOOK_SECRET', 'NOTIFY_TELEGRAM_BOT_TOKEN'] as const;
