/**
 * In a backtest nothing should wait in real time, yet the client's rate-limit library (Bottleneck,
 * src/exchange/rate-limits/pool-limiter.ts) yields between its steps with `setTimeout(fn, 0)`,
 * and Node gives every such timer a floor of 1 ms: several per request, most of a request's time
 * on loopback (docs/backtesting.md § Speed). Installed by the backtest process only: a timer of
 * 0 ms (or none) runs on the next event-loop turn instead, like `setImmediate`; every other timer
 * is untouched. Nothing here changes what runs or in which order within the backtest (each step
 * is awaited to idle), only how long an empty yield lasts.
 */

let installed = false;

export function installZeroDelayTimers(): void {
  if (installed) return;
  installed = true;
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const immediates = new WeakSet<object>();
  const patchedSet = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (typeof fn !== 'function' || (ms !== undefined && ms > 0)) return realSet(fn, ms, ...args);
    const handle = setImmediate(fn, ...args);
    immediates.add(handle);
    return handle;
  }) as unknown as typeof setTimeout;
  const patchedClear = ((handle: unknown) => {
    if (typeof handle === 'object' && handle !== null && immediates.has(handle)) clearImmediate(handle as NodeJS.Immediate);
    else realClear(handle as NodeJS.Timeout);
  }) as typeof clearTimeout;
  globalThis.setTimeout = patchedSet;
  globalThis.clearTimeout = patchedClear;
}
