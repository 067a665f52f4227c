/**
 * The in-process venue's balances reply as the client's model: what `parseBalanceMap` reads from
 * the balance route's wire form (src/simulator/routes/account.ts `balance`), built from the
 * account's balances directly instead of printing each decimal and parsing it back. The route
 * lists the assets sorted by `localeCompare`, the parser keeps the reply object's key order, and
 * the simulator's decimals are immutable and print as plain strings that parse to the same
 * values. What this does not take for plain falls back to the wire form, so the parser's answer
 * or error is the one given: a negative or overlong amount (the parser refuses it), an asset name
 * not starting with a letter (an object orders integer-like keys first; `__proto__` is no key).
 * test/unit/backtest/in-process-balances.test.ts holds both equal after random account changes.
 */
import type { Decimal } from '../core/decimal.js';
import type { Account } from '../simulator/account.js';
import { plain } from './in-process-deals.js';

const PLAIN_ASSET = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function byAsset(a: readonly [string, Decimal], b: readonly [string, Decimal]): number {
  return a[0].localeCompare(b[0]);
}

/** The balances as the client parses the full balance reply; undefined when only the wire form can tell. */
export function balanceModel(account: Account): Map<string, Decimal> | undefined {
  const entries = [...account.balances].sort(byAsset);
  const out = new Map<string, Decimal>();
  for (const [asset, amount] of entries) {
    if (!PLAIN_ASSET.test(asset) || !plain(amount, false)) return undefined;
    out.set(asset, amount);
  }
  return out;
}
