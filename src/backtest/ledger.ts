/**
 * A strategy's own book, replayed from its fills over the sampled price path: its equity curve
 * (budget + quote cash flow + positions marked at each step's price; its figures taken point by
 * point, the points not kept), what is still open at the
 * end (FIFO lots marked at the last price: unrealised PnL), and when it held a position.
 */
import { Decimal } from '../core/decimal.js';
import { EquityCurve } from './metrics.js';
import type { BacktestFill } from './result.js';
import type { Samples } from './samples.js';

interface Lot {
  amount: Decimal;
  price: Decimal;
}

export interface Book {
  equity: EquityCurve;
  unrealisedPnl: Decimal;
  positionSpans: Array<{ fromMs: number; toMs: number }>;
}

function addToLots(lots: Lot[], signed: Decimal, price: Decimal): void {
  let rest = signed;
  while (!rest.isZero() && lots.length > 0 && (lots[0] as Lot).amount.isNeg() !== rest.isNeg()) {
    const lot = lots[0] as Lot;
    const take = Decimal.min(lot.amount.abs(), rest.abs());
    const sign = rest.isNeg() ? -1 : 1;
    lot.amount = lot.amount.plus(take.mul(sign));
    rest = rest.minus(take.mul(sign));
    if (lot.amount.isZero()) lots.shift();
  }
  if (!rest.isZero()) lots.push({ amount: rest, price });
}

class Replay {
  readonly cash: Decimal[] = [];
  cashNow = new Decimal(0);
  readonly pos = new Map<string, Decimal>();
  readonly lots = new Map<string, Lot[]>();
  readonly spans: Array<{ fromMs: number; toMs: number }> = [];
  private openSince: number | null = null;

  apply(f: BacktestFill): void {
    const amount = new Decimal(f.amount);
    const price = new Decimal(f.price);
    const signed = f.side === 'buy' ? amount : amount.neg();
    const quote = amount.mul(price);
    this.cashNow = this.cashNow.plus(f.side === 'buy' ? quote.neg() : quote).minus(new Decimal(f.fee));
    this.pos.set(f.market, (this.pos.get(f.market) ?? new Decimal(0)).plus(signed));
    const lots = this.lots.get(f.market) ?? [];
    addToLots(lots, signed, price);
    this.lots.set(f.market, lots);
    const open = [...this.pos.values()].some((p) => !p.isZero());
    if (open && this.openSince === null) this.openSince = f.timeMs;
    if (!open && this.openSince !== null) {
      this.spans.push({ fromMs: this.openSince, toMs: f.timeMs });
      this.openSince = null;
    }
  }

  close(endMs: number): void {
    if (this.openSince !== null && endMs > this.openSince) this.spans.push({ fromMs: this.openSince, toMs: endMs });
  }

  /** `start` plus the cash flow, as last worked out (it changes with a fill only). */
  private base: { start: Decimal; cash: Decimal; value: Decimal } | undefined;

  /** The book's value at the current sample: `start`, the cash flow, and the positions at that step's prices. */
  valueAt(prices: StepPrices, start: Decimal): Decimal {
    let base = this.base;
    if (base === undefined || base.start !== start || base.cash !== this.cashNow) {
      base = { start, cash: this.cashNow, value: start.plus(this.cashNow) };
      this.base = base;
    }
    let value = base.value;
    // A closed position (zero) adds nothing: no price needs reading for it.
    for (const [market, p] of this.pos) if (!p.isZero()) value = value.plus(p.mul(prices.of(market) ?? 0));
    return value;
  }

  /** The open lots marked at each market's last sampled price. */
  unrealised(samples: Samples): Decimal {
    let out = new Decimal(0);
    for (const [market, lots] of this.lots) {
      const last = samples.prices.get(market)?.last();
      if (last === undefined) continue;
      for (const lot of lots) out = out.plus(lot.amount.mul(last.minus(lot.price)));
    }
    return out;
  }
}

/**
 * The prices of one sample, each read once for all the books that mark a position in its market
 * (a read builds the Decimal from the sample's column).
 */
class StepPrices {
  private i = -1;
  private readonly read = new Map<string, Decimal | undefined>();

  constructor(private readonly samples: Samples) {}

  moveTo(i: number): void {
    this.i = i;
    this.read.clear();
  }

  of(market: string): Decimal | undefined {
    if (this.read.has(market)) return this.read.get(market);
    const price = this.samples.prices.get(market)?.at(this.i);
    this.read.set(market, price);
    return price;
  }
}

/** Replays `fills` (time order) against the samples; `start` is the curve's starting value. */
export function replayBook(fills: readonly BacktestFill[], samples: Samples, start: Decimal): Book {
  return replayBooks(fills, samples, new Map([['', { start, curve: true }]]), () => [''], () => undefined).get('') as Book;
}

/** A book of replayBooks: its curve's starting value, and whether its curve is wanted at all. */
export interface BookSpec {
  start: Decimal;
  curve: boolean;
}

/**
 * Several books replayed in one pass over `fills` (time order, any iteration: a long run's fills
 * need not be held): each fill goes to the books `keysOf` names, each book sees exactly what
 * replayBook of its own fills would, and `onFill` sees every fill once, in order. A book whose
 * curve is not wanted is not valued at each step.
 */
export function replayBooks(
  fills: Iterable<BacktestFill>,
  samples: Samples,
  specs: ReadonlyMap<string, BookSpec>,
  keysOf: (f: BacktestFill) => readonly string[],
  onFill: (f: BacktestFill) => void,
): Map<string, Book> {
  const books = [...specs].map(([key, spec]) => ({ key, spec, r: new Replay(), equity: new EquityCurve() }));
  const byKey = new Map(books.map((b) => [b.key, b]));
  const apply = (f: BacktestFill): void => {
    onFill(f);
    for (const key of keysOf(f)) byKey.get(key)?.r.apply(f);
  };
  const it = fills[Symbol.iterator]();
  let next = it.next();
  const prices = new StepPrices(samples);
  for (let i = 0; i < samples.length; i++) {
    const t = samples.timeAt(i);
    for (; next.done !== true && next.value.timeMs <= t; next = it.next()) apply(next.value);
    prices.moveTo(i);
    for (const b of books) if (b.spec.curve) b.equity.add(t, b.r.valueAt(prices, b.spec.start));
  }
  for (; next.done !== true; next = it.next()) apply(next.value);
  const endMs = samples.length === 0 ? 0 : samples.timeAt(samples.length - 1);
  const out = new Map<string, Book>();
  for (const b of books) {
    b.r.close(endMs);
    out.set(b.key, { equity: b.equity, unrealisedPnl: b.r.unrealised(samples), positionSpans: b.r.spans });
  }
  return out;
}
