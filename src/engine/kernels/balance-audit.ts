/**
 * Pure kernel of the balance audit (docs/balance-audit.md): for each asset, the change of the
 * venue's main balance since the asset's baseline against the change of the books' total
 * (src/engine/kernels/books.ts) over the same window, judged with a tolerance.
 *
 * Verdicts:
 * - `explained`: |actual − expected| within the tolerance; the baseline moves to now;
 * - `unexplained`: beyond it (and confirmed, see `confirm`); reported once, the baseline moves to
 *   now so the next window starts after the reported difference;
 * - `unconfirmed`: beyond it in the confirming look only (something arrived between the looks);
 *   the baseline stays and the next audit judges the whole window again;
 * - `deferred`: the books cannot account for the asset now (collateral margin in use); the
 *   baseline stays, the window grows until the asset is accountable again;
 * - `started`: no baseline yet (first audit, or an asset deferred since its first look); the
 *   baseline starts now.
 */
import { Decimal, ZERO } from '../../core/decimal.js';
import type { Books } from './books.js';

/** Where an asset's window starts. */
export interface AssetPoint {
  balance: Decimal;
  books: Decimal;
  atMs: number;
}

/**
 * The stored baseline. `atMs` is the last audit that set one (null before the first), so an
 * asset absent from `assets` was zero on both sides then (the venue omits zero balances);
 * `assets[x] === null` means the asset is waiting for its first accountable look.
 */
export interface Baseline {
  atMs: number | null;
  assets: Readonly<Record<string, AssetPoint | null>>;
}

export interface Snapshot {
  atMs: number;
  balances: Readonly<Record<string, Decimal>>;
  books: Books;
}

/** A difference is unexplained when |difference| > max(byAsset[asset], fraction × the larger |balance| of the window's ends). */
export interface Tolerance {
  fraction: Decimal;
  byAsset: Readonly<Record<string, Decimal>>;
}

export type Verdict = 'explained' | 'unexplained' | 'unconfirmed' | 'deferred' | 'started';

export interface AssetVerdict {
  asset: string;
  verdict: Verdict;
  /** Window start (the baseline's time); null when there is none. */
  fromMs: number | null;
  toMs: number;
  /** Change of the main balance over the window. */
  actual: Decimal;
  /** Change the books explain over the window. */
  expected: Decimal;
  /** actual − expected. */
  difference: Decimal;
  /** The tolerance applied. */
  allowed: Decimal;
}

export function allowedDifference(asset: string, from: Decimal, to: Decimal, tol: Tolerance): Decimal {
  const relative = Decimal.max(from.abs(), to.abs()).mul(tol.fraction);
  return Decimal.max(tol.byAsset[asset] ?? ZERO, relative);
}

function startOf(baseline: Baseline, asset: string): AssetPoint | null {
  const point = baseline.assets[asset];
  if (point !== undefined) return point;
  return baseline.atMs === null ? null : { balance: ZERO, books: ZERO, atMs: baseline.atMs };
}

function judge(asset: string, baseline: Baseline, now: Snapshot, tol: Tolerance): AssetVerdict {
  const balance = now.balances[asset] ?? ZERO;
  const books = now.books.totals[asset] ?? ZERO;
  const start = startOf(baseline, asset);
  const base = { asset, toMs: now.atMs, fromMs: start?.atMs ?? null };
  if (start === null) {
    const verdict = now.books.inFlight.includes(asset) ? 'deferred' : 'started';
    return { ...base, verdict, actual: ZERO, expected: ZERO, difference: ZERO, allowed: ZERO };
  }
  const actual = balance.minus(start.balance);
  const expected = books.minus(start.books);
  const difference = actual.minus(expected);
  const allowed = allowedDifference(asset, start.balance, balance, tol);
  const verdict = now.books.inFlight.includes(asset) ? 'deferred' : difference.abs().gt(allowed) ? 'unexplained' : 'explained';
  return { ...base, verdict, actual, expected, difference, allowed };
}

/** Every asset of the baseline, the balances and the books, judged; sorted by asset. */
export function compareAssets(baseline: Baseline, now: Snapshot, tol: Tolerance): AssetVerdict[] {
  const assets = new Set([...Object.keys(baseline.assets), ...Object.keys(now.balances), ...Object.keys(now.books.totals), ...now.books.inFlight]);
  return [...assets].sort().map((a) => judge(a, baseline, now, tol));
}

/**
 * The second look decides: an asset is `unexplained` only when both looks (against the same
 * baseline) found it so; a difference the second look alone shows is `unconfirmed`, and one the
 * second look no longer shows was something in flight during the first.
 */
export function confirm(first: readonly AssetVerdict[], second: readonly AssetVerdict[]): AssetVerdict[] {
  const before = new Set(first.filter((v) => v.verdict === 'unexplained').map((v) => v.asset));
  return second.map((v) => (v.verdict === 'unexplained' && !before.has(v.asset) ? { ...v, verdict: 'unconfirmed' } : v));
}

/** The baseline after an audit judged `verdicts` at `now`. */
export function nextBaseline(old: Baseline, now: Snapshot, verdicts: readonly AssetVerdict[]): Baseline {
  const assets: Record<string, AssetPoint | null> = {};
  for (const v of verdicts) {
    const moves = v.verdict === 'explained' || v.verdict === 'unexplained' || v.verdict === 'started';
    if (moves) assets[v.asset] = { balance: now.balances[v.asset] ?? ZERO, books: now.books.totals[v.asset] ?? ZERO, atMs: now.atMs };
    else assets[v.asset] = startOf(old, v.asset);
  }
  return { atMs: now.atMs, assets };
}
