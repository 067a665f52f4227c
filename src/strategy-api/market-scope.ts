/**
 * The markets configured for this run, as `p.market()` sees them while the loader validates an
 * instance's params. zod has no parse context, and the schemas are built by plugin modules long
 * before the config is known, so the loader runs the parse inside this scope instead of making
 * every strategy list its market params on the side.
 *
 * Outside a scope (a unit test parsing params directly) only the market-name pattern applies.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<ReadonlySet<string>>();

/** Runs `fn` with `markets` as the configured markets. */
export function withConfiguredMarkets<T>(markets: ReadonlySet<string>, fn: () => T): T {
  return scope.run(markets, fn);
}

/** The configured markets, or undefined outside a loader scope. */
export function configuredMarkets(): ReadonlySet<string> | undefined {
  return scope.getStore();
}
