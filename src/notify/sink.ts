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

/** The system error code (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_CONNECT_TIMEOUT`) of an error or its cause chain. */
function errorCodeOf(err: unknown, depth = 0): string | undefined {
  if (!(err instanceof Error) || depth > 3) return undefined;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Connecting to a name with several addresses fails with an AggregateError of one error per address.
  const first = err instanceof AggregateError ? (err.errors as unknown[])[0] : undefined;
  return errorCodeOf(first, depth + 1) ?? errorCodeOf((err as Error & { cause?: unknown }).cause, depth + 1);
}

/**
 * A safe description of a thrown error: its name and system error code only, never its message
 * (undici's messages and causes may carry the request URL and host:port, and the Telegram URL
 * holds the bot token), e.g. `TypeError (ECONNREFUSED)`.
 */
export function safeErrorText(err: unknown): string {
  if (!(err instanceof Error)) return 'error';
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return err.name;
  const code = errorCodeOf(err);
  return code === undefined ? err.name : `${err.name} (${code})`;
}

/** Replaces every occurrence of each secret (≥ 4 chars) in `text`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]').split(encodeURIComponent(s)).join('[redacted]');
  return out;
}
