/**
 * Param helpers for strategy schemas: `p.decimal()`, `p.percent()`, `p.market()`, ... Each is a
 * zod schema, so it composes with `z.strictObject`, `.optional()` and `.prefault()`.
 *
 * Money params arrive as decimal strings (a JSON number has already been through binary floating
 * point) and leave as `Decimal`. Every message says what was expected, distinctly for each kind of
 * problem (wrong type, malformed string, out of range), because the loader prints it as
 * `strategies[i].params.<key>: expected <message>, found <value>`.
 */
import { z } from 'zod';
import { Decimal, dec, isDecimalString } from '../core/decimal.js';
import { ASSET_RE, MARKET_RE } from '../core/market-names.js';
import { configuredMarkets } from './market-scope.js';

/** Bounds of a decimal param, as decimal strings (`{ gt: '0', lt: '50' }`). */
export interface DecimalBounds {
  /** Exclusive lower bound. */
  gt?: string;
  /** Inclusive lower bound. */
  gte?: string;
  /** Exclusive upper bound. */
  lt?: string;
  /** Inclusive upper bound. */
  lte?: string;
}

/** Bounds of an integer param (counts, durations in ms), inclusive. */
export interface IntBounds {
  min?: number;
  max?: number;
}

type BoundKey = keyof DecimalBounds;

const BOUNDS: readonly { key: BoundKey; sign: string; holds: (d: Decimal, bound: Decimal) => boolean }[] = [
  { key: 'gt', sign: '>', holds: (d, b) => d.gt(b) },
  { key: 'gte', sign: '≥', holds: (d, b) => d.gte(b) },
  { key: 'lt', sign: '<', holds: (d, b) => d.lt(b) },
  { key: 'lte', sign: '≤', holds: (d, b) => d.lte(b) },
];

function boundsText(bounds: DecimalBounds): string {
  return BOUNDS.flatMap(({ key, sign }) => (bounds[key] === undefined ? [] : [` ${sign} ${bounds[key]}`])).join(' and');
}

/** The bound checks, parsed once: a malformed bound fails when the module loads, not per value. */
function boundChecks(bounds: DecimalBounds): ((d: Decimal) => boolean)[] {
  return BOUNDS.flatMap(({ key, holds }) => {
    const raw = bounds[key];
    if (raw === undefined) return [];
    const bound = dec(raw);
    return [(d: Decimal) => holds(d, bound)];
  });
}

const DECIMAL_TYPE = 'a decimal string such as "0.5"';
const DECIMAL_FORMAT = 'a plain decimal string such as "0.5" (no exponent, spaces or commas)';

/** A decimal string within `bounds`, parsed to Decimal. `noun` names it in the range message. */
function boundedDecimal(noun: string, bounds: DecimalBounds): z.ZodType<Decimal, string> {
  const checks = boundChecks(bounds);
  return z
    .string({ error: (iss) => (typeof iss.input === 'number' ? `${DECIMAL_TYPE}, not a JSON number (numbers lose precision)` : DECIMAL_TYPE) })
    .refine(isDecimalString, { error: DECIMAL_FORMAT, abort: true })
    .transform((s) => new Decimal(s))
    .refine((d) => checks.every((holds) => holds(d)), { error: `${noun}${boundsText(bounds)}` });
}

function withDefaultRange(bounds: DecimalBounds, lower: DecimalBounds, upper: DecimalBounds): DecimalBounds {
  const hasLower = bounds.gt !== undefined || bounds.gte !== undefined;
  const hasUpper = bounds.lt !== undefined || bounds.lte !== undefined;
  return { ...(hasLower ? {} : lower), ...(hasUpper ? {} : upper), ...bounds };
}

function intText(bounds: IntBounds): string {
  const parts = [bounds.min === undefined ? '' : ` ≥ ${bounds.min}`, bounds.max === undefined ? '' : ` ≤ ${bounds.max}`];
  return `an integer${parts.filter((s) => s !== '').join(' and')}`;
}

function intTypeMessage(expected: string, input: unknown): string {
  if (typeof input === 'string') return `${expected} as a JSON number, not a string`;
  if (typeof input === 'number') return `a whole number (${expected})`;
  return expected;
}

function boundedInt(bounds: IntBounds): z.ZodType<number, number> {
  const expected = intText(bounds);
  return z
    .int({ error: (iss) => intTypeMessage(expected, iss.input) })
    .refine((n) => (bounds.min === undefined || n >= bounds.min) && (bounds.max === undefined || n <= bounds.max), { error: expected });
}

const MARKET_EXPECTED = 'a market name such as "BTC_USDT" (upper-case BASE_QUOTE)';

function configuredMarket(): z.ZodType<string, string> {
  return z
    .string({ error: MARKET_EXPECTED })
    .regex(MARKET_RE, { error: MARKET_EXPECTED, abort: true })
    .superRefine((market, ctx) => {
      const known = configuredMarkets();
      if (known === undefined || known.has(market)) return;
      ctx.addIssue({ code: 'custom', input: market, message: `a market configured under "markets" (${[...known].join(', ')})` });
    });
}

/** Param helpers. Money and percentages are decimal strings in the config and `Decimal` in `ctx.params`. */
export const p = {
  /** Any plain decimal string (`"-1.5"`, `"0.001"`), optionally bounded, e.g. `p.decimal({ gte: '0', lt: '1' })`. */
  decimal: (bounds: DecimalBounds = {}): z.ZodType<Decimal, string> => boundedDecimal('a decimal', bounds),
  /** A decimal > 0: amounts, prices, quote sizes. */
  positive: (): z.ZodType<Decimal, string> => boundedDecimal('a decimal', { gt: '0' }),
  /** A decimal ≥ 0: thresholds and balances that may be zero. */
  nonNegative: (): z.ZodType<Decimal, string> => boundedDecimal('a decimal', { gte: '0' }),
  /**
   * A percentage, > 0 and < 100 unless `bounds` say otherwise (`p.percent({ lt: '50' })` keeps
   * > 0). The value is the percentage itself: `"0.5"` is 0.5 %, so divide by 100 to apply it.
   */
  percent: (bounds: DecimalBounds = {}): z.ZodType<Decimal, string> => boundedDecimal('a percentage', withDefaultRange(bounds, { gt: '0' }, { lt: '100' })),
  /** A whole number (a count, a duration in ms), inclusive bounds: `p.int({ min: 1, max: 20 })`. */
  int: (bounds: IntBounds = {}): z.ZodType<number, number> => boundedInt(bounds),
  /** A market name; when the daemon loads the strategy it must also be one of the configured markets. */
  market: (): z.ZodType<string, string> => configuredMarket(),
  /** An asset ticker such as `USDT`. */
  asset: (): z.ZodType<string, string> => z.string({ error: 'an asset ticker such as "USDT"' }).regex(ASSET_RE, { error: 'an asset ticker such as "USDT" (upper-case letters and digits)' }),
};
