/**
 * Display forms for the dashboard, shared by its browser modules and unit-tested in Node (no DOM
 * here). Amounts arrive as exact decimal strings and are rounded as strings, digit by digit, so a
 * figure is never turned into a binary float on its way to the screen; the exact value stays in
 * the cell's tooltip.
 */

/** A market's increments, as the state document carries them. */
export interface MarketSteps {
  tick: string;
  step: string;
}

/** Decimal places of an increment such as `0.01` (2) or `5` (0). */
export function placesOf(increment: string): number {
  const dot = increment.indexOf('.');
  if (dot < 0) return 0;
  return increment.slice(dot + 1).replace(/0+$/, '').length;
}

/** Adds one unit in the last place to a string of digits ("0999" → "1000"). */
function incrementDigits(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/**
 * `value` (a plain decimal string) rounded half away from zero to exactly `places` decimals:
 * `roundDecimal('39628.291123', 2)` is `39628.29`, `roundDecimal('-0.0049', 2)` is `0.00`.
 * Anything that is not a plain decimal is returned unchanged.
 */
export function roundDecimal(value: string, places: number): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (m === null) return value;
  const [, sign, int = '0', frac = ''] = m;
  const padded = frac.padEnd(places + 1, '0');
  let digits = int + padded.slice(0, places);
  if (Number(padded.charAt(places)) >= 5) digits = incrementDigits(digits);
  const whole = digits.slice(0, digits.length - places).replace(/^0+(?=\d)/, '') || '0';
  const text = places > 0 ? `${whole}.${digits.slice(digits.length - places)}` : whole;
  return /[1-9]/.test(text) ? `${sign}${text}` : text;
}

/** `2026-11-24 09:40:19` in UTC (the pages say so in their headings); '-' for no time. */
export function utcTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** CSS class for a signed figure: 'pos', 'neg' or '' for zero and for no value. */
export function signClass(v: string | null | undefined): string {
  if (v === null || v === undefined || !/[1-9]/.test(v)) return '';
  return v.startsWith('-') ? 'neg' : 'pos';
}

/** Places per market and per asset, from the markets' ticks and steps. */
export class Precision {
  private readonly markets: Readonly<Record<string, MarketSteps>>;
  /** Places for amounts of the equity asset: the finest tick of the markets (2 at least). */
  private readonly quote: number;

  constructor(markets: Readonly<Record<string, MarketSteps>>) {
    this.markets = markets;
    this.quote = Math.max(2, ...Object.values(markets).map((m) => placesOf(m.tick)));
  }

  /** A price of `market` at its tick's places; unchanged when the market is unknown. */
  price(market: string, v: string | null): string {
    const m = this.markets[market];
    if (v === null) return '-';
    return m === undefined ? v : roundDecimal(v, placesOf(m.tick));
  }

  /** A base amount of `market` at its step's places; unchanged when the market is unknown. */
  amount(market: string, v: string | null): string {
    const m = this.markets[market];
    if (v === null) return '-';
    return m === undefined ? v : roundDecimal(v, placesOf(m.step));
  }

  /** An amount of the equity asset (PnL, fees, equity). */
  money(v: string | null): string {
    return v === null ? '-' : roundDecimal(v, this.quote);
  }

  /** A fee in `asset` on a fill of `market`: quote places, or the step's when paid in the base. */
  fee(market: string, asset: string, equityAsset: string, v: string): string {
    if (asset !== equityAsset && market.startsWith(`${asset}_`)) return this.amount(market, v);
    return this.money(v);
  }
}
