/**
 * The one configured Decimal and the money helpers. Money is never a JS number: amounts,
 * prices, fees and PnL are `Decimal` from parse to store, and strings on the wire and on disk.
 */
import { Decimal as BaseDecimal } from 'decimal.js';
import type { Side } from './orders.js';

/**
 * decimal.js clone with 60 significant digits and no exponent notation in `toString()` for any
 * magnitude money can have.
 */
export const Decimal = BaseDecimal.clone({
  precision: 60,
  rounding: BaseDecimal.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type Decimal = BaseDecimal;

/** Plain decimal string: optional minus, digits, optional fraction. No exponent, no spaces. */
const DECIMAL_RE = /^-?(?:\d+)(?:\.\d+)?$/;

export const ZERO: Decimal = new Decimal(0);

/** True when `s` is a plain decimal string as money travels on the wire. */
export function isDecimalString(s: string): boolean {
  return DECIMAL_RE.test(s);
}

/**
 * Parses a decimal string strictly. Throws `RangeError` on anything else (including numbers in
 * exponent notation, `NaN`, empty strings). Accepts an existing Decimal unchanged.
 */
export function dec(value: string | Decimal): Decimal {
  if (typeof value !== 'string') return value;
  if (!DECIMAL_RE.test(value)) throw new RangeError(`not a decimal string: ${JSON.stringify(value.slice(0, 40))}`);
  return new Decimal(value);
}

/** Like `dec` but returns `undefined` instead of throwing. */
export function tryDec(value: unknown): Decimal | undefined {
  if (typeof value !== 'string' || !DECIMAL_RE.test(value)) return undefined;
  return new Decimal(value);
}

/**
 * Converts a JSON number that a venue sent where a string was expected (docs/live-service.md §7: futures
 * fields may be numbers). Uses the shortest round-trip representation of the double, which is
 * exactly what the venue serialised.
 */
export function decFromJsonNumber(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${String(n)}`);
  return new Decimal(n.toString());
}

/** Wire and storage form: plain notation, no exponent, trailing zeros removed. */
export function toWire(d: Decimal): string {
  return d.toFixed();
}

/** 10^-k for the decimal places a step of a power of ten can have (1, 0.1, …, 1e-30). */
const UNIT_STEPS: readonly Decimal[] = Array.from({ length: 31 }, (_, k) => new Decimal(10).pow(-k));

/** k when `step` is exactly 10^-k (a tick or lot of 0.01, 1), for k up to 30; undefined otherwise. */
function unitStepPlaces(step: Decimal): number | undefined {
  const places = step.decimalPlaces();
  const unit = UNIT_STEPS[places];
  return unit !== undefined && step.eq(unit) ? places : undefined;
}

/**
 * True when `step` is 10^-k and `value` has at most k decimal places: then `value` is a multiple
 * of `step`, decided without a division.
 */
function onUnitGrid(value: Decimal, step: Decimal): boolean {
  if (!value.isFinite() || value.decimalPlaces() > step.decimalPlaces()) return false;
  return unitStepPlaces(step) !== undefined;
}

/**
 * `value / step` rounded to an integer by `rounding` (floor or ceil) times `step`, for a step of
 * 10^-k, without the division: when `value` has no more significant digits than the precision,
 * the quotient (value × 10^k), its rounding and the product back are all exact, so the answer is
 * `value` cut to k places in the same direction, zero's sign included. Undefined otherwise.
 */
function cutToUnitStep(value: Decimal, step: Decimal, rounding: BaseDecimal.Rounding): Decimal | undefined {
  if (!value.isFinite() || value.sd() > Decimal.precision) return undefined;
  const places = unitStepPlaces(step);
  return places === undefined ? undefined : value.toDecimalPlaces(places, rounding);
}

/** Truncates `amount` down to a multiple of `step` (never rounds up past a balance). */
export function truncateToStep(amount: Decimal, step: Decimal): Decimal {
  if (step.lte(0)) throw new RangeError('step must be > 0');
  // Already on a power-of-ten step: the division and product would give it back.
  if (onUnitGrid(amount, step)) return amount;
  return cutToUnitStep(amount, step, Decimal.ROUND_FLOOR) ?? amount.div(step).floor().mul(step);
}

/**
 * Rounds a price to the tick, by side: a buy rounds down (never pay more than asked), a sell
 * rounds up (never sell for less than asked).
 */
export function roundToTick(price: Decimal, tick: Decimal, side: Side): Decimal {
  if (tick.lte(0)) throw new RangeError('tick must be > 0');
  if (onUnitGrid(price, tick)) return price;
  const cut = cutToUnitStep(price, tick, side === 'buy' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL);
  if (cut !== undefined) return cut;
  const q = price.div(tick);
  return (side === 'buy' ? q.floor() : q.ceil()).mul(tick);
}

/**
 * True when `value` is an exact multiple of `step`. A multiple of `step` has no more decimal
 * places than `step`, and on a power-of-ten step every value with no more is one: both are
 * decided without the division of `mod`, which answers the rest.
 */
export function isMultipleOf(value: Decimal, step: Decimal): boolean {
  // An infinite or NaN value has no decimal places to compare (and is no multiple).
  if (!value.isFinite() || value.decimalPlaces() > step.decimalPlaces()) return false;
  return onUnitGrid(value, step) || value.mod(step).isZero();
}

/** Sum of decimals; the empty sum is zero. */
export function sum(values: Iterable<Decimal>): Decimal {
  let acc = ZERO;
  for (const v of values) acc = acc.plus(v);
  return acc;
}
