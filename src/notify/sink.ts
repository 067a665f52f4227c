/**
 * A destination for notifications (webhook, Telegram). A sink sends one event once and says
 * whether a failure is worth retrying; retries, timeouts and the queue live in `Channel`.
 * Failure texts must be safe to log: no URL with a token, no response body beyond a short,
 * scrubbed description.
 */
import type { NotifyEvent } from './events.js';

export type SendResult =
  | { ok: true }
  | {
      ok: false;
      /** False for a refusal that will not change on retry (bad chat id, 4xx). */
      retry: boolean;
      /** The receiver asked to wait this long (HTTP 429 `Retry-After`, Telegram `retry_after`). */
      retryAfterMs?: number;
      /** Short, safe description (status, error code). */
      error: string;
    };

export interface Sink {
  readonly name: string;
  /** Sends one event; rejects or resolves `{ ok: false }` on failure. Must stop when `signal` aborts. */
  send(e: NotifyEvent, signal: AbortSignal): Promise<SendResult>;
}

/**
 * A safe description of a thrown error: its name and code only, never its message (undici's
 * messages and causes may carry the request URL, and the Telegram URL holds the bot token).
 */
export function safeErrorText(err: unknown): string {
  if (!(err instanceof Error)) return 'error';
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return err.name;
  const cause = (err as Error & { cause?: unknown }).cause;
  const code = (err as Error & { code?: unknown }).code ?? (cause instanceof Error ? (cause as Error & { code?: unknown }).code : undefined);
  return typeof code === 'string' ? `${err.name} (${code})` : err.name;
}

/** Replaces every occurrence of each secret (≥ 4 chars) in `text`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]').split(encodeURIComponent(s)).join('[redacted]');
  return out;
}
