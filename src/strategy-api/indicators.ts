/**
 * Technical indicators for strategies, from `trading-signals` (docs/strategies.md § Indicators).
 * The library computes in JS numbers; money stays `Decimal` where a strategy sees it: inputs are
 * Decimals converted at this boundary, results come back as Decimals. The values are therefore
 * approximations (a double's ~15 significant digits), fine for signals; the prices and amounts of
 * orders are the strategy's own Decimals, never an indicator's number.
 *
 * Each indicator is a streaming object: `update()` once per new value (a candle's close), so a
 * long run never recomputes its window; `over(values)` feeds a whole series and returns the last
 * result, for one-line use. The library's objects stay private (`#inner`); the wrappers and their
 * prototypes are frozen, and the sandbox hardens the namespace (sandbox/evaluate.ts).
 */
import { ATR, BollingerBands, EMA, MACD, RSI, SMA, WMA } from 'trading-signals';
import { Decimal } from '../core/decimal.js';

/** One bar's prices, as the ATR reads them. */
export interface HighLowClose {
  high: Decimal;
  low: Decimal;
  close: Decimal;
}

export interface MacdValue {
  macd: Decimal;
  signal: Decimal;
  histogram: Decimal;
}

export interface BandsValue {
  lower: Decimal;
  middle: Decimal;
  upper: Decimal;
}

/** What the wrapped library object offers (every trading-signals indicator has these). */
interface Inner<I, R> {
  update(input: I, replace: boolean): R | null;
  getResult(): R | null | undefined;
  readonly isStable: boolean;
}

/** A result of the library as Decimal; a non-finite number (a division by zero inside) is no value. */
function toDecimal(n: number): Decimal | undefined {
  return Number.isFinite(n) ? new Decimal(n) : undefined;
}

function toNumber(d: Decimal): number {
  if (!Decimal.isDecimal(d)) throw new TypeError(`indicator input must be a Decimal, got ${typeof d}`);
  const n = d.toNumber();
  if (!Number.isFinite(n)) throw new RangeError(`indicator input out of range: ${d.toFixed()}`);
  return n;
}

function recordOf<K extends string>(r: Record<K, number>, keys: readonly K[]): Record<K, Decimal> | undefined {
  const out = {} as Record<K, Decimal>;
  for (const k of keys) {
    const v = toDecimal(r[k]);
    if (v === undefined) return undefined;
    out[k] = v;
  }
  return Object.freeze(out);
}

/**
 * A streaming indicator: `I` is what one update takes (a Decimal, or a bar), `O` what it gives.
 * `value` is undefined until the indicator has seen enough inputs (`ready`).
 */
export class Indicator<I, O> {
  readonly #inner: Inner<unknown, unknown>;
  readonly #input: (i: I) => unknown;
  readonly #output: (r: never) => O | undefined;
  #count = 0;

  constructor(inner: Inner<unknown, unknown>, input: (i: I) => unknown, output: (r: never) => O | undefined) {
    this.#inner = inner;
    this.#input = input;
    this.#output = output;
    Object.freeze(this);
  }

  /** Adds one input (the newest) and returns the value after it. */
  update(input: I): O | undefined {
    this.#inner.update(this.#input(input), false);
    this.#count++;
    return this.value;
  }

  /** Adds each input in order and returns the value after the last. */
  over(inputs: Iterable<I>): O | undefined {
    for (const i of inputs) this.update(i);
    return this.value;
  }

  get value(): O | undefined {
    if (!this.#inner.isStable) return undefined;
    const r = this.#inner.getResult();
    return r === null || r === undefined ? undefined : this.#output(r as never);
  }

  /** Enough inputs seen for a value. */
  get ready(): boolean {
    return this.value !== undefined;
  }

  /** Inputs seen so far. */
  get count(): number {
    return this.#count;
  }
}
Object.freeze(Indicator.prototype);
Object.freeze(Indicator);

function period(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new RangeError(`${what} must be an integer from 1 to 100000, got ${String(n)}`);
  return n;
}

type AnyInner = Inner<unknown, unknown>;

const closeSeries = (inner: Inner<number, number>): Indicator<Decimal, Decimal> => new Indicator<Decimal, Decimal>(inner as AnyInner, toNumber, toDecimal);

const MACD_KEYS = ['macd', 'signal', 'histogram'] as const;
const BAND_KEYS = ['lower', 'middle', 'upper'] as const;

function barInput(b: HighLowClose): { high: number; low: number; close: number } {
  return { high: toNumber(b.high), low: toNumber(b.low), close: toNumber(b.close) };
}

/**
 * The indicators, each a factory of a fresh streaming `Indicator`. Periods are counts of inputs
 * (candles), not time.
 */
export const indicators = Object.freeze({
  /** Simple moving average of the last `n` values. */
  sma: (n: number): Indicator<Decimal, Decimal> => closeSeries(new SMA(period(n, 'sma period'))),
  /** Exponential moving average (weight 2 / (n + 1)); a value once `n` inputs were seen. */
  ema: (n: number): Indicator<Decimal, Decimal> => closeSeries(new EMA(period(n, 'ema period'))),
  /** Weighted moving average of the last `n` values. */
  wma: (n: number): Indicator<Decimal, Decimal> => closeSeries(new WMA(period(n, 'wma period'))),
  /** Relative strength index with Wilder's smoothing, 0 to 100; a value after `n + 1` inputs. */
  rsi: (n = 14): Indicator<Decimal, Decimal> => closeSeries(new RSI(period(n, 'rsi period'))),
  /** MACD of EMAs (`fast`, `slow`) and its `signal` EMA; defaults 12, 26, 9. */
  macd: (o: { fast?: number; slow?: number; signal?: number } = {}): Indicator<Decimal, MacdValue> => {
    const inner = new MACD(new EMA(period(o.fast ?? 12, 'macd fast')), new EMA(period(o.slow ?? 26, 'macd slow')), new EMA(period(o.signal ?? 9, 'macd signal')));
    return new Indicator<Decimal, MacdValue>(inner as AnyInner, toNumber, (r: Record<(typeof MACD_KEYS)[number], number>) => recordOf(r, MACD_KEYS));
  },
  /** Bollinger bands: SMA of `n` values ± `k` standard deviations; defaults 20, 2. */
  bollinger: (n = 20, k = 2): Indicator<Decimal, BandsValue> => {
    if (!(Number.isFinite(k) && k > 0)) throw new RangeError(`bollinger k must be a positive number, got ${String(k)}`);
    const inner = new BollingerBands(period(n, 'bollinger period'), k);
    return new Indicator<Decimal, BandsValue>(inner as AnyInner, toNumber, (r: Record<(typeof BAND_KEYS)[number], number>) => recordOf(r, BAND_KEYS));
  },
  /** Average true range over `n` bars (Wilder's smoothing); each update takes `{ high, low, close }`. */
  atr: (n = 14): Indicator<HighLowClose, Decimal> => new Indicator<HighLowClose, Decimal>(new ATR(period(n, 'atr period')) as AnyInner, barInput, toDecimal),
});
for (const f of Object.values(indicators)) Object.freeze(f);
