/**
 * A strategy's own book, replayed from its fills over the sampled price path: its equity curve
 * (budget + quote cash flow + positions marked at each step's price; its figures taken point by
 * point, the points not kept), what is still open at the
 * end (FIFO lots marked at the last price: unrealised PnL), and when it held a position.
 */
import { Decimal } from '../core/decimal.js';
import { EquityCurve } from './metrics.js';
import type { BacktestFill } from './result.js';
import { parseFill, type ParsedFill } from './round-trips.js';
import type { Samples } from './samples.js';
import { SteppedCurve, type Stretch } from './curve-steps.js';
import { addNear, bookStretch, OP_ERR, type Near, type OpenPosition } from './book-stretch.js';

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
    const lotSize = lot.amount.abs();
    const restSize = rest.abs();
    // The smaller size, signed as `rest` (a sign flip, not a multiplication by ±1: the same value).
    const take = lotSize.lt(restSize) ? lotSize : restSize;
    const signed = rest.isNeg() ? take.neg() : take;
    lot.amount = lot.amount.plus(signed);
    rest = rest.minus(signed);
    if (lot.amount.isZero()) lots.shift();
  }
  if (!rest.isZero()) lots.push({ amount: rest, price });
}

class Replay {
  cashNow = new Decimal(0);
  readonly pos = new Map<string, Decimal>();
  readonly lots = new Map<string, Lot[]>();
  readonly spans: Array<{ fromMs: number; toMs: number }> = [];
  /** Counts the fills applied: the value's stretch (curve-steps.ts) ends with each. */
  fills = 0;
  private openSince: number | null = null;
  /** Markets with a non-zero position. */
  private openMarkets = 0;

  /**
   * `curve`: the book's value is wanted at each step (else its cash is not kept: it only marks
   * what is open). `keepLots`: its open lots are kept here (else they are given at the end: BookSpec.lots).
   */
  constructor(
    private readonly curve: boolean,
    private readonly keepLots: boolean,
  ) {}

  /** Doubles tracking the cash and each position, for the stretches' estimates (book-stretch.ts). */
  private readonly cashNear: Near = { value: 0, err: 0 };
  private readonly posNear = new Map<string, Near>();

  apply(p: ParsedFill): void {
    const f = p.fill;
    const { amount, price } = p;
    const buy = f.side === 'buy';
    const signed = buy ? amount : amount.neg();
    if (this.curve) {
      const quote = amount.mul(price);
      this.cashNow = this.cashNow.plus(buy ? quote.neg() : quote).minus(p.fee);
      this.track(f, buy);
    }
    this.move(f.market, signed);
    if (this.keepLots) {
      const lots = this.lots.get(f.market) ?? [];
      addToLots(lots, signed, price);
      this.lots.set(f.market, lots);
    }
    this.fills++;
    const open = this.openMarkets > 0;
    if (open && this.openSince === null) this.openSince = f.timeMs;
    if (!open && this.openSince !== null) {
      this.spans.push({ fromMs: this.openSince, toMs: f.timeMs });
      this.openSince = null;
    }
  }

  /** The position in `market` moved by `signed`, and the count of open markets with it. */
  private move(market: string, signed: Decimal): void {
    const was = this.pos.get(market) ?? new Decimal(0);
    const now = was.plus(signed);
    this.pos.set(market, now);
    this.openMarkets += (now.isZero() ? 0 : 1) - (was.isZero() ? 0 : 1);
  }

  /** The doubles' share of a fill: each text read as its nearest double, each operation's rounding bounded. */
  private track(f: BacktestFill, buy: boolean): void {
    const amount = Number(f.amount);
    const quote = amount * Number(f.price);
    const fee = Number(f.fee);
    addNear(this.cashNear, buy ? -quote : quote, OP_ERR * (Math.abs(quote) + Math.abs(fee)));
    addNear(this.cashNear, -fee, 0);
    let pos = this.posNear.get(f.market);
    if (pos === undefined) {
      pos = { value: 0, err: 0 };
      this.posNear.set(f.market, pos);
    }
    addNear(pos, buy ? amount : -amount, OP_ERR * Math.abs(amount));
  }

  close(endMs: number): void {
    if (this.openSince !== null && endMs > this.openSince) this.spans.push({ fromMs: this.openSince, toMs: endMs });
  }

  /** The book's value from now until the next fill (a closed position, zero, adds nothing and reads no price). */
  stretch(samples: Samples, start: Decimal, startNear: number): Stretch {
    const open: OpenPosition[] = [];
    for (const [market, size] of this.pos) {
      if (size.isZero()) continue;
      const near = this.posNear.get(market) as Near;
      open.push({ column: samples.prices.get(market), size, near: near.value, nearErr: near.err });
    }
    return bookStretch(start, startNear, this.cashNow, { ...this.cashNear }, open);
  }

}

/** Open lots per market (amounts signed: negative short), each market's in the order they opened. */
export type OpenLots = Iterable<[string, Iterable<Lot>]>;

/** The open lots marked at each market's last sampled price. */
function unrealised(lotsByMarket: OpenLots, samples: Samples): Decimal {
  let out = new Decimal(0);
  for (const [market, lots] of lotsByMarket) {
    const last = samples.prices.get(market)?.last();
    if (last === undefined) continue;
    for (const lot of lots) out = out.plus(lot.amount.mul(last.minus(lot.price)));
  }
  return out;
}

/** Replays `fills` (time order) against the samples; `start` is the curve's starting value. */
export function replayBook(fills: readonly BacktestFill[], samples: Samples, start: Decimal): Book {
  return replayBooks(fills, samples, new Map([['', { start, curve: true }]]), () => [''], () => undefined).get('') as Book;
}

/** A book of replayBooks: its curve's starting value, and whether its curve is wanted at all. */
export interface BookSpec {
  start: Decimal;
  curve: boolean;
  /**
   * The book's open lots at the end when they are kept elsewhere, per market in the order the
   * book first traded each (a strategy's are its round trips' FIFO books: FifoFold.lotsOf); the
   * replay then keeps none.
   */
  lots?: () => OpenLots;
}

/** replayParsed of fills given as text (each parsed once for all the books). */
export function replayBooks(
  fills: Iterable<BacktestFill>,
  samples: Samples,
  specs: ReadonlyMap<string, BookSpec>,
  keysOf: (f: BacktestFill) => readonly string[],
  onFill: (f: BacktestFill) => void,
): Map<string, Book> {
  function* parsed(): Generator<ParsedFill> {
    let i = 0;
    for (const f of fills) yield parseFill(f, i++);
  }
  return replayParsed(parsed(), samples, specs, keysOf, (p) => onFill(p.fill));
}

interface Replayed {
  key: string;
  spec: BookSpec;
  r: Replay;
  equity: EquityCurve;
  steps: SteppedCurve;
  /** The book's fill count when its stretch was last set. */
  seen: number;
  /** The double nearest the curve's starting value. */
  startNear: number;
}

/**
 * Several books replayed in one pass over `fills` (time order, any iteration: a long run's fills
 * need not be held): each fill goes to the books `keysOf` names, each book sees exactly what
 * replayBook of its own fills would, and `onFill` sees every fill once, in order. A book whose
 * curve is not wanted is not valued at each step; one that is, only at the steps that can move
 * its figures (curve-steps.ts).
 */
export function replayParsed(
  fills: Iterable<ParsedFill>,
  samples: Samples,
  specs: ReadonlyMap<string, BookSpec>,
  keysOf: (f: BacktestFill) => readonly string[],
  onFill: (f: ParsedFill) => void,
): Map<string, Book> {
  const books = [...specs].map(([key, spec]): Replayed => {
    const r = new Replay(spec.curve, spec.lots === undefined);
    const equity = new EquityCurve();
    return { key, spec, r, equity, steps: new SteppedCurve(equity), seen: -1, startNear: spec.start.toNumber() };
  });
  const curves = books.filter((b) => b.spec.curve);
  const byKey = new Map(books.map((b) => [b.key, b]));
  const apply = (f: ParsedFill): void => {
    onFill(f);
    for (const key of keysOf(f.fill)) byKey.get(key)?.r.apply(f);
  };
  const it = fills[Symbol.iterator]();
  let next = it.next();
  for (let i = 0; i < samples.length; i++) {
    const t = samples.timeAt(i);
    for (; next.done !== true && next.value.fill.timeMs <= t; next = it.next()) apply(next.value);
    for (const b of curves) {
      if (b.seen !== b.r.fills) {
        b.steps.stretch(b.r.stretch(samples, b.spec.start, b.startNear));
        b.seen = b.r.fills;
      }
      b.steps.add(i, t);
    }
  }
  for (; next.done !== true; next = it.next()) apply(next.value);
  const endMs = samples.length === 0 ? 0 : samples.timeAt(samples.length - 1);
  const out = new Map<string, Book>();
  for (const b of books) {
    b.r.close(endMs);
    out.set(b.key, { equity: b.equity, unrealisedPnl: unrealised(b.spec.lots?.() ?? b.r.lots, samples), positionSpans: b.r.spans });
  }
  return out;
}
