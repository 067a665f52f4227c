/**
 * The one poll helper of the suite: tests wait for an effect, never for a fixed time.
 *
 * ```ts
 * await eventually(() => server.requests.length === 1, 'the first request');
 * const health = await eventually(async () => (await probe()) ?? undefined, 'healthy', { timeoutMs: 30_000, everyMs: 250 });
 * ```
 */

/** A value that means "not yet": polling goes on. */
type NotYet = undefined | null | false;

export interface EventuallyOptions {
  /** Give up after this long (real time). Default 5 s. */
  timeoutMs?: number;
  /** Real time between attempts. Default 10 ms; polls that spawn processes or hit a daemon use more. */
  everyMs?: number;
}

/**
 * Calls `fn` (sync or async) until it returns something other than undefined, null or false,
 * and resolves with that value. A throw counts as "not yet"; the last one is quoted when the
 * wait times out with `timed out waiting for <what>`.
 */
export async function eventually<T>(fn: () => T | Promise<T>, what: string, options: EventuallyOptions = {}): Promise<Exclude<T, NotYet>> {
  const { timeoutMs = 5_000, everyMs = 10 } = options;
  const end = performance.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== null && v !== false) return v as Exclude<T, NotYet>;
    } catch (err) {
      lastErr = err;
    }
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}${lastErr === undefined ? '' : `: ${String(lastErr)}`}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
