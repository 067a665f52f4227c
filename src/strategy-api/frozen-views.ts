/**
 * What a hook is handed is the strategy's own or frozen (docs/sandbox.md § What a strategy can
 * reach). In the backtest's thread the views are made by the engine in the same thread, so:
 * each view is frozen, and each Decimal in it is a copy the engine never computes with
 * (`decimalCopy`): a strategy that changed one (its digits) would change only its own view.
 * Decimals are not frozen: decimal.js on a frozen digits array is about 3.5x slower, and any
 * frozen operand slows every call site it reaches.
 */
import { Decimal } from '../core/decimal.js';

/** A copy of `d` to hand to a strategy: the engine's own decimal stays out of its reach. */
export function decimalCopy(d: Decimal): Decimal {
  return new Decimal(d);
}

/** `decimalCopy`, null and undefined passed on. */
export function decimalCopyOf<T extends Decimal | null | undefined>(d: T): T {
  return (d === null || d === undefined ? d : decimalCopy(d)) as T;
}

/** A frozen copy of `o` whose Decimals are copies. */
export function copiedView<T extends object>(o: T): T {
  const out = { ...o } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) if (Decimal.isDecimal(v)) out[k] = decimalCopy(v as Decimal);
  return Object.freeze(out) as T;
}

/** `f` frozen, so that a hook may hold it but not change it for the next caller. */
export function frozenFunction<F extends (...args: never[]) => unknown>(f: F): F {
  return Object.freeze(f);
}
