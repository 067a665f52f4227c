/**
 * Field readers for request bodies. Each collects messages per parameter name, so a handler can
 * answer the spec's error body with every failing field at once.
 */
import { isDecimalString, dec, type Decimal } from '../core/decimal.js';
import type { FieldMessages } from './errors.js';

export class FieldReader {
  readonly errors: FieldMessages = {};

  constructor(private readonly body: Record<string, unknown>) {}

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  has(field: string): boolean {
    return this.body[field] !== undefined && this.body[field] !== null;
  }

  string(field: string, required: boolean): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      if (required) this.fail(field, `The ${field} field is required.`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.fail(field, `The ${field} must be a string.`);
      return undefined;
    }
    return v;
  }

  /** A positive plain decimal string. */
  decimal(field: string, required: boolean): Decimal | undefined {
    const s = this.string(field, required);
    if (s === undefined) return undefined;
    if (!isDecimalString(s) || dec(s).lte(0)) {
      this.fail(field, `The ${field} must be a positive number.`);
      return undefined;
    }
    return dec(s);
  }

  bool(field: string): boolean {
    const v = this.body[field];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      this.fail(field, `The ${field} field must be true or false.`);
      return false;
    }
    return v;
  }

  /** An integer (JSON number, or a string of digits) within [min, max]. */
  int(field: string, min: number, max: number): number | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) {
      this.fail(field, `The ${field} must be an integer.`);
      return undefined;
    }
    if (n < min) this.fail(field, `The ${field} must be at least ${min}.`);
    else if (n > max) this.fail(field, `The ${field} may not be greater than ${max}.`);
    else return n;
    return undefined;
  }
}
