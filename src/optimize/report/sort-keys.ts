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

/** A value parsed once for sorting: its kind (0 numbers and decimal strings, 1 booleans, 2 other text) and, for a number, its exact decimal. */
interface Keyed {
  kind: 0 | 1 | 2;
  num: Decimal | undefined;
  v: string | number | boolean;
}

function keyed(v: string | number | boolean): Keyed {
  const num = typeof v === 'boolean' ? undefined : paramDecimal(v);
  return { kind: typeof v === 'boolean' ? 1 : num === undefined ? 2 : 0, num, v };
}

function compareKeyed(a: Keyed, b: Keyed): number {
  if (a.kind !== b.kind) return a.kind - b.kind;
  if (a.kind === 0) return (a.num as Decimal).comparedTo(b.num as Decimal);
  if (a.kind === 1) return Number(a.v) - Number(b.v);
  const sa = String(a.v);
  const sb = String(b.v);
  if (sa === sb) return 0;
  return sa < sb ? -1 : 1;
}

/** Total order over non-null values: numbers by value, then false before true, then text by code unit. */
export function compareValues(a: string | number | boolean, b: string | number | boolean): number {
  return compareKeyed(keyed(a), keyed(b));
}

/** Each value's dense rank in the column (0 = smallest; equal values share one), null for no value. */
export function sortRanks(values: readonly SortValue[]): Array<number | null> {
  const present: Array<{ k: Keyed; i: number }> = [];
  values.forEach((v, i) => {
    if (v !== null) present.push({ k: keyed(v), i });
  });
  present.sort((x, y) => compareKeyed(x.k, y.k) || x.i - y.i);
  const ranks: Array<number | null> = values.map(() => null);
  let rank = -1;
  present.forEach((e, n) => {
    const prev = present[n - 1];
    if (prev === undefined || compareKeyed(prev.k, e.k) !== 0) rank += 1;
    ranks[e.i] = rank;
  });
  return ranks;
}
