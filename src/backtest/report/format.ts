/** Display forms for the report's tables: exact decimals stay exact, ratios become percentages. */
import { Decimal, dec } from '../../core/decimal.js';

/** ISO 8601 UTC, minute precision when the seconds are zero. */
export function utc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(':00.000Z') ? `${iso.slice(0, 16)}Z` : `${iso.slice(0, 19)}Z`;
}

/** A ratio in [0, 1] as a percentage with two places; null as a dash. */
export function percent(ratio: string | null): string {
  if (ratio === null) return '—';
  return `${dec(ratio).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(2)}%`;
}

/** A plain figure with two places (Sharpe); null as a dash. */
export function fixed2(value: string | null): string {
  if (value === null) return '—';
  return dec(value).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(2);
}

/** CSS class for the sign of a money figure. */
export function signClass(value: string): string {
  const d = dec(value);
  if (d.isZero()) return 'num';
  return d.isNegative() ? 'num neg' : 'num pos';
}
