/**
 * Sort keys for the trials table, computed here with exact decimals so the page never compares
 * amounts as text ("10" before "9") or as binary floats: each cell carries its value's rank in its
 * column (equal values share a rank), and the page sorts by those integers. A cell without a
 * value has no rank and stays last in either direction.
 */
import type { Decimal } from '../../core/decimal.js';
import { paramDecimal } from './format.js';

/** A cell's value before display: a decimal string or number, a boolean, a text, or nothing. */
export type SortValue = string | number | boolean | null;

/** 0 for numbers (and decimal strings), 1 for booleans, 2 for other text: a mixed column groups them so. */
function kindOf(v: string | number | boolean): 0 | 1 | 2 {
  if (typeof v === 'boolean') return 1;
  return paramDecimal(v) === undefined ? 2 : 0;
}

/** Total order over non-null values: numbers by value, then false before true, then text by code unit. */
export function compareValues(a: string | number | boolean, b: string | number | boolean): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return ka - kb;
  if (ka === 0) return (paramDecimal(a) as Decimal).comparedTo(paramDecimal(b) as Decimal);
  if (ka === 1) return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  if (sa === sb) return 0;
  return sa < sb ? -1 : 1;
}

/** Each value's dense rank in the column (0 = smallest; equal values share one), null for no value. */
export function sortRanks(values: readonly SortValue[]): Array<number | null> {
  const present = values.map((v, i) => ({ v, i })).filter((e): e is { v: string | number | boolean; i: number } => e.v !== null);
  present.sort((x, y) => compareValues(x.v, y.v) || x.i - y.i);
  const ranks: Array<number | null> = values.map(() => null);
  let rank = -1;
  present.forEach((e, n) => {
    const prev = present[n - 1];
    if (prev === undefined || compareValues(prev.v, e.v) !== 0) rank += 1;
    ranks[e.i] = rank;
  });
  return ranks;
}
