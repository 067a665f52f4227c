/**
 * Webhook sink: one JSON POST per event (body: `toWebhookJson`). With a secret, the body is
 * signed so a receiver can tell the bot's requests from anyone else's:
 * `X-V4Bot-Signature-256: sha256=<hex HMAC-SHA256(secret, raw body)>`; the body's `time` lets it
 * refuse replays. 2xx is delivered; 408, 429 and 5xx and network errors are retried (429 after
 * `Retry-After` seconds when given); any other status is a permanent refusal. Redirects are not
 * followed. Delivery is at-least-once (a request that timed out may have arrived): every retry of
 * one event sends the same bytes, with the same `id`, so a receiver can de-duplicate. The URL
 * may itself be a secret (many services put the token in the path), so it never appears in a
 * result or log: the sink is called "webhook".
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { NotifyEvent } from './events.js';
import { toWebhookJson } from './format.js';
import type { SendResult, Sink } from './sink.js';

export interface WebhookOptions {
  url: string;
  /** HMAC key for the signature header, or null for unsigned requests. */
  secret: string | null;
  /** `source` field of every body (e.g. `v4-bot paper`). */
  source: string;
}

export const SIGNATURE_HEADER = 'x-v4bot-signature-256';

/** The signature header's value for a raw body (receivers compute the same and compare in constant time). */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** `Retry-After` in seconds (the HTTP-date form is not used by webhook receivers we know of). */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return undefined;
  return Number.parseInt(header.trim(), 10) * 1_000;
}

export function statusResult(status: number, retryAfter?: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  const retry = status === 408 || status === 429 || status >= 500;
  return retryAfter === undefined ? { ok: false, retry, error: `HTTP ${status}` } : { ok: false, retry, retryAfterMs: retryAfter, error: `HTTP ${status}` };
}

export class WebhookSink implements Sink {
  readonly name = 'webhook';
  /** The body of each event once built: retries resend it unchanged. */
  private readonly bodies = new WeakMap<NotifyEvent, string>();

  constructor(private readonly options: WebhookOptions) {}

  private bodyOf(e: NotifyEvent): string {
    let body = this.bodies.get(e);
    if (body === undefined) {
      body = JSON.stringify({ id: randomUUID(), ...toWebhookJson(e, this.options.source) });
      this.bodies.set(e, body);
    }
    return body;
  }

  async send(e: NotifyEvent, signal: AbortSignal): Promise<SendResult> {
    const body = this.bodyOf(e);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'v4-bot', 'x-v4bot-event': e.type };
    if (this.options.secret !== null) headers[SIGNATURE_HEADER] = signBody(this.options.secret, body);
    const res = await fetch(this.options.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    await res.body?.cancel().catch(() => undefined);
    return statusResult(res.status, res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : undefined);
  }
}
