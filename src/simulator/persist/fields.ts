/**
 * Reading one stored record back: every field checked, and a bad one named by where it was found
 * (table, row, field). Decimals are plain decimal strings on disk (docs/architecture.md §8.2).
 */
import { dec, type Decimal } from '../../core/decimal.js';
import { isRecord } from '../../core/records.js';

/** The paper venue's state file is unreadable or not what this version wrote. */
export class PaperStateError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaperStateError';
  }
}

/** Typed access to the fields of one stored JSON object. */
export class Fields {
  private readonly record: Record<string, unknown>;

  constructor(
    private readonly where: string,
    value: unknown,
  ) {
    if (!isRecord(value)) throw new PaperStateError(`${where}: expected an object`);
    this.record = value;
  }

  static parse(where: string, json: string): Fields {
    try {
      return new Fields(where, JSON.parse(json));
    } catch (err) {
      if (err instanceof PaperStateError) throw err;
      throw new PaperStateError(`${where}: not JSON`, { cause: err });
    }
  }

  private bad(key: string, expected: string): PaperStateError {
    const found = JSON.stringify(this.record[key]) ?? 'nothing';
    return new PaperStateError(`${this.where}.${key}: expected ${expected}, found ${found.slice(0, 40)}`);
  }

  has(key: string): boolean {
    return this.record[key] !== undefined && this.record[key] !== null;
  }

  raw(key: string): unknown {
    return this.record[key];
  }

  sub(key: string): Fields {
    return new Fields(`${this.where}.${key}`, this.record[key]);
  }

  dec(key: string): Decimal {
    const v = this.record[key];
    if (typeof v !== 'string') throw this.bad(key, 'a decimal string');
    try {
      return dec(v);
    } catch {
      throw this.bad(key, 'a decimal string');
    }
  }

  optDec(key: string): Decimal | undefined {
    return this.has(key) ? this.dec(key) : undefined;
  }

  num(key: string): number {
    const v = this.record[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw this.bad(key, 'a number');
    return v;
  }

  optNum(key: string): number | undefined {
    return this.has(key) ? this.num(key) : undefined;
  }

  str(key: string): string {
    const v = this.record[key];
    if (typeof v !== 'string') throw this.bad(key, 'a string');
    return v;
  }

  optStr(key: string): string | undefined {
    return this.has(key) ? this.str(key) : undefined;
  }

  /** An integer as a string of digits (a nonce may exceed 2^53). */
  digits(key: string): string {
    const v = this.record[key];
    if (typeof v !== 'string' || !/^\d{1,30}$/.test(v)) throw this.bad(key, 'a string of digits');
    return v;
  }

  bool(key: string): boolean {
    const v = this.record[key];
    if (typeof v !== 'boolean') throw this.bad(key, 'true or false');
    return v;
  }

  oneOf<T extends string | number>(key: string, values: readonly T[]): T {
    const v = this.record[key];
    if (!values.includes(v as T)) throw this.bad(key, `one of ${values.join(', ')}`);
    return v as T;
  }

  /** A map of decimal strings (asset → amount). */
  decMap(key: string): Map<string, Decimal> {
    const m = this.sub(key);
    return new Map(Object.keys(m.record).map((k) => [k, m.dec(k)]));
  }

  /** A map of numbers (key → number). */
  numMap(key: string): Map<string, number> {
    const m = this.sub(key);
    return new Map(Object.keys(m.record).map((k) => [k, m.num(k)]));
  }

  /** An array whose items are read by `item` (each named by its index). */
  list<T>(key: string, item: (f: Fields) => T): T[] {
    const v = this.record[key];
    if (!Array.isArray(v)) throw this.bad(key, 'an array');
    return v.map((x, i) => item(new Fields(`${this.where}.${key}[${i}]`, x)));
  }
}

/**
 * JSON of a state object with every Decimal as its exact plain string (`toFixed`), whatever its
 * magnitude; a Map becomes an object.
 */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const original = key === '' ? value : this[key];
    if (isDecimalLike(original)) return original.toFixed();
    if (original instanceof Map) return Object.fromEntries(original);
    return v;
  });
}

function isDecimalLike(v: unknown): v is Decimal {
  return typeof v === 'object' && v !== null && typeof (v as { toFixed?: unknown }).toFixed === 'function' && typeof (v as { isZero?: unknown }).isZero === 'function';
}
