/**
 * Field readers for validating replies at the edge. Every failure is a `BadResponseError` naming
 * the endpoint and the field path (`records[2].stopLoss.price`) and what was wrong, never the
 * value itself (bodies never reach error messages).
 *
 * Money and counts are non-negative unless a reader says `signed`: the spec gives no meaning to a
 * negative amount, price, balance, LTV or volume, so a reply carrying one is malformed, not a
 * value to pass on. Times must fall within 2000..2200: anything else (0, 1e308) is a broken
 * field, and letting it through would drive time arithmetic downstream (scan anchors, ages).
 */
import { BadResponseError } from '../core/errors.js';
import { ZERO, decFromJsonNumber, tryDec, type Decimal } from '../core/decimal.js';
import { isSafeId } from '../core/ids.js';
import { isRecord } from '../core/records.js';

export type Json = unknown;

/** Earliest and latest plausible venue time, ms. */
export const MIN_TIME_MS = Date.UTC(2000, 0, 1);
export const MAX_TIME_MS = Date.UTC(2200, 0, 1);

/** Longer plain decimal strings are not amounts (and would be carried exactly, at any length). */
const MAX_DECIMAL_CHARS = 100;
/** JSON numbers at or beyond this print in exponent notation and are no plausible amount. */
const MAX_JSON_MONEY = 1e21;

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export type Sign = 'nonNegative' | 'signed';

/** Reads fields of one object; `path` is the object's own path for messages. */
export class Reader {
  constructor(
    readonly endpoint: string,
    readonly obj: Record<string, unknown>,
    readonly path: string,
  ) {}

  static of(endpoint: string, value: unknown, path: string): Reader {
    if (!isRecord(value)) throw new BadResponseError(endpoint, path || '(root)', `expected an object, got ${typeName(value)}`);
    return new Reader(endpoint, value, path);
  }

  fail(field: string, what: string): never {
    throw new BadResponseError(this.endpoint, this.at(field), what);
  }

  at(field: string): string {
    return this.path === '' ? field : `${this.path}.${field}`;
  }

  has(field: string): boolean {
    return this.obj[field] !== undefined && this.obj[field] !== null;
  }

  /** The first of several spellings that is present, or undefined. */
  pick(...names: string[]): string | undefined {
    return names.find((n) => this.has(n));
  }

  raw(field: string): unknown {
    return this.obj[field];
  }

  str(field: string): string {
    const v = this.obj[field];
    if (typeof v !== 'string') this.fail(field, `expected a string, got ${typeName(v)}`);
    return v;
  }

  optStr(field: string): string | undefined {
    return this.has(field) ? this.str(field) : undefined;
  }

  bool(field: string): boolean {
    const v = this.obj[field];
    if (typeof v === 'boolean') return v;
    if (v === 0 || v === 1) return v === 1;
    return this.fail(field, `expected a boolean, got ${typeName(v)}`);
  }

  optBool(field: string, fallback: boolean): boolean {
    return this.has(field) ? this.bool(field) : fallback;
  }

  /** A safe non-negative integer id (rejects floats, strings and values beyond 2^53). */
  id(field: string): number {
    const v = this.obj[field];
    if (!isSafeId(v)) this.fail(field, typeof v === 'number' ? 'not a safe non-negative integer' : `expected an integer, got ${typeName(v)}`);
    return v;
  }

  /** A safe non-negative integer (counts, codes, page fields). */
  int(field: string): number {
    const v = this.obj[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) this.fail(field, `expected an integer, got ${typeName(v)}`);
    if (v < 0) this.fail(field, 'negative');
    return v;
  }

  /** Non-negative integer, or a string of digits (futures fields may be either). */
  looseInt(field: string): number {
    const v = this.obj[field];
    if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
    if (typeof v === 'string') this.fail(field, 'not a non-negative integer string');
    return this.int(field);
  }

  /** A loose integer ≥ 1 (leverage, intervals: zero would divide by nothing downstream). */
  positiveLooseInt(field: string): number {
    const v = this.looseInt(field);
    if (v === 0) this.fail(field, 'expected at least 1');
    return v;
  }

  /** Decimal money from a plain decimal string; non-negative unless `signed`. */
  dec(field: string, sign: Sign = 'nonNegative'): Decimal {
    const v = this.obj[field];
    if (typeof v !== 'string') this.fail(field, `expected a decimal string, got ${typeName(v)}`);
    if (v.length > MAX_DECIMAL_CHARS) this.fail(field, `decimal string longer than ${MAX_DECIMAL_CHARS} characters`);
    const d = tryDec(v);
    if (d === undefined) this.fail(field, 'not a plain decimal string');
    return this.signChecked(field, d, sign);
  }

  signedDec(field: string): Decimal {
    return this.dec(field, 'signed');
  }

  optDec(field: string, sign: Sign = 'nonNegative'): Decimal | undefined {
    return this.has(field) ? this.dec(field, sign) : undefined;
  }

  /** Decimal from a string or a JSON number (docs/live-service.md §7: futures); non-negative unless `signed`. */
  looseDec(field: string, sign: Sign = 'nonNegative'): Decimal {
    const v = this.obj[field];
    if (typeof v !== 'number') return this.dec(field, sign);
    if (!Number.isFinite(v) || Math.abs(v) >= MAX_JSON_MONEY) this.fail(field, 'not a plausible finite number');
    return this.signChecked(field, decFromJsonNumber(v), sign);
  }

  optLooseDec(field: string, sign: Sign = 'nonNegative'): Decimal | undefined {
    return this.has(field) ? this.looseDec(field, sign) : undefined;
  }

  /** Unix seconds (possibly fractional) → ms, within 2000..2200. */
  secondsToMs(field: string): number {
    const v = this.obj[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(field, `expected Unix seconds, got ${typeName(v)}`);
    return this.inTimeRange(field, Math.round(v * 1000));
  }

  optSecondsToMs(field: string): number | undefined {
    return this.has(field) ? this.secondsToMs(field) : undefined;
  }

  /**
   * Integer Unix time of unstated unit (flex, credit line): seconds within 2000..2200 or ms within
   * it. The two ranges do not overlap, so the unit is never a guess.
   */
  unixToMs(field: string): number {
    const v = this.int(field);
    return this.inTimeRange(field, v >= MIN_TIME_MS ? v : v * 1000);
  }

  /** Milliseconds as an integer or a digit string (futures), within 2000..2200. */
  looseMs(field: string): number {
    return this.inTimeRange(field, this.looseInt(field));
  }

  child(field: string): Reader {
    return Reader.of(this.endpoint, this.obj[field], this.at(field));
  }

  array(field: string): unknown[] {
    const v = this.obj[field];
    if (!Array.isArray(v)) this.fail(field, `expected an array, got ${typeName(v)}`);
    return v;
  }

  private signChecked(field: string, d: Decimal, sign: Sign): Decimal {
    // "-0" is zero: keep no negative sign on it.
    if (d.isZero()) return ZERO;
    if (sign === 'nonNegative' && d.isNegative()) this.fail(field, 'negative');
    return d;
  }

  private inTimeRange(field: string, ms: number): number {
    if (!(ms >= MIN_TIME_MS && ms <= MAX_TIME_MS)) this.fail(field, 'time outside 2000..2200');
    return ms;
  }
}
