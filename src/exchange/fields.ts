/**
 * Field readers for validating replies at the edge. Every failure is a `BadResponseError` naming
 * the endpoint and the field path (`records[2].stopLoss.price`) and what was wrong, never the
 * value itself (bodies never reach error messages).
 */
import { BadResponseError } from '../core/errors.js';
import { decFromJsonNumber, tryDec, type Decimal } from '../core/decimal.js';
import { isSafeId } from '../core/ids.js';
import { isRecord } from '../core/records.js';

export type Json = unknown;

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

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

  int(field: string): number {
    const v = this.obj[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) this.fail(field, `expected an integer, got ${typeName(v)}`);
    return v;
  }

  /** Integer, or a string of digits (futures fields may be either). */
  looseInt(field: string): number {
    const v = this.obj[field];
    if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
    return this.int(field);
  }

  /** Decimal money from a plain decimal string. */
  dec(field: string): Decimal {
    const v = this.obj[field];
    if (typeof v !== 'string') this.fail(field, `expected a decimal string, got ${typeName(v)}`);
    const d = tryDec(v);
    if (d === undefined) this.fail(field, 'not a plain decimal string');
    return d;
  }

  optDec(field: string): Decimal | undefined {
    return this.has(field) ? this.dec(field) : undefined;
  }

  /** Decimal from a string or a JSON number (service-notes 7: futures). */
  looseDec(field: string): Decimal {
    const v = this.obj[field];
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) this.fail(field, 'not a finite number');
      return decFromJsonNumber(v);
    }
    return this.dec(field);
  }

  optLooseDec(field: string): Decimal | undefined {
    return this.has(field) ? this.looseDec(field) : undefined;
  }

  /** Unix seconds (possibly fractional) → ms. */
  secondsToMs(field: string): number {
    const v = this.obj[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) this.fail(field, `expected Unix seconds, got ${typeName(v)}`);
    return Math.round(v * 1000);
  }

  optSecondsToMs(field: string): number | undefined {
    return this.has(field) ? this.secondsToMs(field) : undefined;
  }

  child(field: string): Reader {
    return Reader.of(this.endpoint, this.obj[field], this.at(field));
  }

  array(field: string): unknown[] {
    const v = this.obj[field];
    if (!Array.isArray(v)) this.fail(field, `expected an array, got ${typeName(v)}`);
    return v;
  }
}
