/**
 * Display forms for the study report: param values as the space file wrote them, objectives
 * rounded for the eye (the exact value stays in the cell's tooltip), hashes shortened.
 */
import { Decimal, decFromJsonNumber, dec, tryDec } from '../../core/decimal.js';
import type { ParamValue, ParamValues, TrialWindow } from '../types.js';
import { utc } from '../../backtest/report/format.js';

/** Characters of a SHA-256 shown in the header; the full hash is the element's tooltip. */
export const SHORT_HASH = 12;

export function shortHash(sha256: string): string {
  return sha256.slice(0, SHORT_HASH);
}

export function paramText(value: ParamValue): string {
  return typeof value === 'string' ? value : String(value);
}

/** A param value as an exact decimal when it is a number or a plain decimal string, else undefined. */
export function paramDecimal(value: ParamValue): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? decFromJsonNumber(value) : undefined;
  return typeof value === 'string' ? tryDec(value) : undefined;
}

/** The names of `params` in the space's order; names the space does not list come after, sorted. */
export function orderedNames(params: ParamValues, order: readonly string[]): string[] {
  return [...order.filter((n) => Object.hasOwn(params, n)), ...Object.keys(params).filter((n) => !order.includes(n)).sort()];
}

/** `name=value` pairs in the space's order. */
export function paramsText(params: ParamValues, order: readonly string[]): string {
  return orderedNames(params, order).map((n) => `${n}=${paramText(params[n] as ParamValue)}`).join(', ');
}

/** An objective or ratio with four places; null (undefined for this trial) as a dash. */
export function fixed4(value: string | null): string {
  if (value === null) return '—';
  return dec(value).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN).toFixed(4);
}

export function windowText(w: Pick<TrialWindow, 'fromMs' | 'toMs'>): string {
  return `${utc(w.fromMs)} → ${utc(w.toMs)}`;
}

/** The span every trial's window lies in, or null without a trial (a loop: a large study would overflow `Math.min(...)`). */
export function studySpan(windows: ReadonlyArray<Pick<TrialWindow, 'fromMs' | 'toMs'>>): { fromMs: number; toMs: number } | null {
  let span: { fromMs: number; toMs: number } | null = null;
  for (const w of windows) {
    span = span === null ? { fromMs: w.fromMs, toMs: w.toMs } : { fromMs: Math.min(span.fromMs, w.fromMs), toMs: Math.max(span.toMs, w.toMs) };
  }
  return span;
}
