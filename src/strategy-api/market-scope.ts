/**
 * The markets configured for this run, as `p.market()` sees them while the loader validates an
 * instance's params. zod has no parse context, and the schemas are built by plugin modules long
 * before the config is known, so the loader runs the parse inside this scope instead of making
 * every strategy list its market params on the side.
 *
 * The parse is synchronous (zod's `parse`/`safeParse`), so the scope is a plain variable set for
 * the duration of the call. Not AsyncLocalStorage: on Node 20 using it once turns on promise hooks
 * for every later promise of the thread, which cost ~7% of a backtest's CPU (docs/backtesting.md
 * § Speed) and the daemon the same per request.
 *
 * Outside a scope (a unit test parsing params directly) only the market-name pattern applies.
 */

let current: ReadonlySet<string> | undefined;

/** Runs `fn` (synchronous) with `markets` as the configured markets; the previous scope is restored after. */
export function withConfiguredMarkets<T>(markets: ReadonlySet<string>, fn: () => T): T {
  const previous = current;
  current = markets;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** The configured markets, or undefined outside a loader scope. */
export function configuredMarkets(): ReadonlySet<string> | undefined {
  return current;
}
