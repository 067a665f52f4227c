/**
 * Telegram sink: `POST {baseUrl}/bot<token>/sendMessage` with `{ chat_id, text }` (Bot API,
 * https://core.telegram.org/bots/api#sendmessage). Plain text, link previews off. A 429 carries
 * `parameters.retry_after` (seconds), which the channel waits out; 5xx and network errors are
 * retried; other refusals (bad token 401, unknown chat 400/403) are permanent.
 *
 * The token is in the URL path, so nothing here ever puts the URL or a library's error text
 * into a result: only the status and Telegram's own `description`, scrubbed of the token.
 */
import { isRecord } from '../core/records.js';
import type { NotifyEvent } from './events.js';
import { toText } from './format.js';
import { scrub, type SendResult, type Sink } from './sink.js';
import { statusResult } from './webhook.js';

export interface TelegramOptions {
  baseUrl: string;
  botToken: string;
  chatId: string;
  source: string;
}

interface Reply {
  description?: string;
  retryAfterMs?: number;
}

function readReply(json: unknown): Reply {
  if (!isRecord(json)) return {};
  const out: Reply = {};
  if (typeof json['description'] === 'string') out.description = json['description'].slice(0, 200);
  const params = json['parameters'];
  if (isRecord(params) && typeof params['retry_after'] === 'number' && params['retry_after'] >= 0) out.retryAfterMs = Math.ceil(params['retry_after']) * 1_000;
  return out;
}

export class TelegramSink implements Sink {
  readonly name = 'telegram';
  private readonly url: string;

  constructor(private readonly options: TelegramOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/bot${options.botToken}/sendMessage`;
  }

  async send(e: NotifyEvent, signal: AbortSignal): Promise<SendResult> {
    const body = JSON.stringify({ chat_id: this.options.chatId, text: toText(e, this.options.source), disable_web_page_preview: true });
    const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal, redirect: 'error' });
    if (res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: true };
    }
    const reply = readReply(await res.json().catch(() => null));
    const base = statusResult(res.status, reply.retryAfterMs);
    if (base.ok) return base;
    const description = reply.description === undefined ? '' : `: ${scrub(reply.description, [this.options.botToken])}`;
    return { ...base, error: `${base.error}${description}` };
  }
}
