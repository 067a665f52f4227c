/**
 * FIFO round trips of a fill list (docs/backtest-metrics.md, "Round trips"). Per strategy and
 * market, fills that grow a position open lots; a fill against the position closes the oldest
 * lots first. Every closing fill yields one trade of the amount it closed: back to flat, a partial
 * close and the closing half of a flip alike. Fees follow the amount pro rata, and the last part
 * of a lot or fill takes the remainder, so no fee is lost or counted twice.
 */
import { Decimal, ZERO, dec, sum, toWire } from '../core/decimal.js';
import type { BacktestFill, BacktestTrade } from './result.js';

/** Fee shares and average entry prices are rounded here (half even); PnL itself is exact. */
const FEE_DP = 12;
const PRICE_DP = 12;

type Direction = 'long' | 'short';

interface Lot {
  timeMs: number;
  price: Decimal;
  /** Amount still open (> 0). */
  amount: Decimal;
  /** Part of the opening fill's fee not yet charged to a trade. */
  fee: Decimal;
}

interface Book {
  direction: Direction;
  lots: Lot[];
  /**
   * The lots' amount, kept as they change while every amount the book met was below 10^21 with
   * at most 20 places: then every sum and difference of them spans under 60 digits, so Decimal
   * keeps it exactly, equal to the lots' sum. Undefined once an amount was outside that.
   */
  open?: Decimal | undefined;
}

/** An amount below 10^21 with at most 20 places (Book.open). */
function short(amount: Decimal): boolean {
  return amount.e < 21 && amount.decimalPlaces() <= 20;
}

/** `book.open` moved by `delta` while it is kept. */
function keepOpen(book: Book, delta: Decimal): void {
  if (book.open !== undefined) book.open = book.open.plus(delta);
}

/** A closed trade with the figures the report's trade list does not carry. */
export interface ClosedTrade {
  trade: BacktestTrade;
  /** PnL before fees. */
  gross: Decimal;
  /** Opening and closing fees charged to this trade. */
  fees: Decimal;
  /** The trade's PnL after fees (its `pnl`, exact). */
  pnl: Decimal;
}

/** A book still holding a position at the end. */
export interface OpenBook {
  direction: Direction;
  amount: Decimal;
  /** Opening fees not yet charged to a trade. */
  fee: Decimal;
  /** When the book last left flat. */
  sinceMs: number;
}

export interface FifoResult {
  closed: ClosedTrade[];
  /** Books still open at the end, per "strategy\u0000market". */
  open: Map<string, OpenBook>;
  /** Periods from leaving flat to returning to flat, per book, in the order they ended. */
  spans: Array<{ fromMs: number; toMs: number }>;
}

/** A fill with its amounts parsed (once, for every fold that reads them). */
export interface ParsedFill {
  fill: BacktestFill;
  direction: Direction;
  price: Decimal;
  amount: Decimal;
  fee: Decimal;
}

/**
 * `fill` parsed and checked; `index`, its place in its list, names it in the error a malformed
 * fill raises. `read` parses a field: `dec`, or one that gives what `dec` gives (a cache of it).
 */
export function parseFill(fill: BacktestFill, index: number, read: (s: string) => Decimal = dec): ParsedFill {
  const price = parseField(fill.price, read, fill, index, 'price');
  const amount = parseField(fill.amount, read, fill, index, 'amount');
  if (!above0(amount)) throw new RangeError(`${where(fill, index)}: amount must be > 0, got ${fill.amount}`);
  if (!above0(price)) throw new RangeError(`${where(fill, index)}: price must be > 0, got ${fill.price}`);
  return { fill, direction: fill.side === 'buy' ? 'long' : 'short', price, amount, fee: parseField(fill.fee, read, fill, index, 'fee') };
}

/** `d.gt(0)` without building the zero to compare with (a parsed decimal is finite: no NaN). */
function above0(d: Decimal): boolean {
  return !d.isNeg() && !d.isZero();
}

function where(fill: BacktestFill, index: number): string {
  return `fill ${index} (order ${fill.orderId})`;
}

function parseField(value: string, read: (s: string) => Decimal, fill: BacktestFill, index: number, field: string): Decimal {
  try {
    return read(value);
  } catch {
    throw new RangeError(`${where(fill, index)}: ${field} is not a decimal string: ${JSON.stringify(value.slice(0, 40))}`);
  }
}

/** Share of `total` for `part` of `whole`; the whole takes the exact remainder. */
function share(total: Decimal, part: Decimal, whole: Decimal): Decimal {
  if (part.eq(whole)) return total;
  return total.mul(part).div(whole).toDecimalPlaces(FEE_DP, Decimal.ROUND_HALF_EVEN);
}

interface Consumed {
  openedMs: number;
  entryCost: Decimal;
  gross: Decimal;
  fees: Decimal;
}

/** Takes `amount` from the oldest lots of `book` at `exit`. The caller ensures the book holds it. */
function consumeLots(book: Book, amount: Decimal, exit: Decimal): Consumed {
  const out: Consumed = { openedMs: book.lots[0]?.timeMs ?? 0, entryCost: ZERO, gross: ZERO, fees: ZERO };
  let left = amount;
  while (above0(left)) {
    const lot = book.lots[0];
    if (lot === undefined) throw new Error('round trips: closing more than the open position');
    const take = Decimal.min(lot.amount, left);
    const fee = share(lot.fee, take, lot.amount);
    const move = book.direction === 'long' ? exit.minus(lot.price) : lot.price.minus(exit);
    out.entryCost = out.entryCost.plus(lot.price.mul(take));
    out.gross = out.gross.plus(move.mul(take));
    out.fees = out.fees.plus(fee);
    lot.amount = lot.amount.minus(take);
    keepOpen(book, take.neg());
    lot.fee = lot.fee.minus(fee);
    left = left.minus(take);
    if (lot.amount.isZero()) book.lots.shift();
  }
  return out;
}

function openAmount(book: Book): Decimal {
  if (book.open !== undefined) return book.open;
  return book.lots.length === 1 ? (book.lots[0] as Lot).amount : sum(book.lots.map((l) => l.amount));
}


/** Applies one fill to its book; returns the trade it closed, if any. */
function applyFill(book: Book, f: ParsedFill): ClosedTrade | null {
  // Every amount a book's lots take or give is this fill's or an earlier one's, or a difference of them.
  if (book.open !== undefined && !short(f.amount)) book.open = undefined;
  if (book.lots.length === 0 || book.direction === f.direction) {
    book.direction = f.direction;
    book.lots.push({ timeMs: f.fill.timeMs, price: f.price, amount: f.amount, fee: f.fee });
    keepOpen(book, f.amount);
    return null;
  }
  const closeAmount = Decimal.min(f.amount, openAmount(book));
  const closeFee = share(f.fee, closeAmount, f.amount);
  const closedDirection = book.direction;
  const used = consumeLots(book, closeAmount, f.price);
  const rest = f.amount.minus(closeAmount);
  if (above0(rest)) {
    // A flip: the rest of the fill opens a position the other way, with the rest of its fee.
    book.direction = f.direction;
    book.lots.push({ timeMs: f.fill.timeMs, price: f.price, amount: rest, fee: f.fee.minus(closeFee) });
    keepOpen(book, rest);
  }
  const fees = used.fees.plus(closeFee);
  const pnl = used.gross.minus(fees);
  const trade: BacktestTrade = {
    strategy: f.fill.strategy,
    market: f.fill.market,
    direction: closedDirection,
    openedMs: used.openedMs,
    closedMs: f.fill.timeMs,
    amount: toWire(closeAmount),
    entryPrice: toWire(used.entryCost.div(closeAmount).toDecimalPlaces(PRICE_DP, Decimal.ROUND_HALF_EVEN)),
    exitPrice: toWire(f.price),
    pnl: toWire(pnl),
  };
  return { trade, gross: used.gross, fees, pnl };
}

/** Fills in time order; fills of the same millisecond keep their given order (stable sort). */
function inTimeOrder(fills: readonly BacktestFill[]): Array<{ fill: BacktestFill; index: number }> {
  return fills.map((fill, index) => ({ fill, index })).sort((a, b) => a.fill.timeMs - b.fill.timeMs);
}

/**
 * The FIFO books fed one fill at a time (in time order): what `fifo` computes for a whole list,
 * without holding the list or the trades. `add` returns the trade a fill closed, if any.
 */
export class FifoFold {
  private readonly books = new Map<string, Book & { since: number; strategy: string; market: string }>();
  private index = 0;
  readonly spans: Array<{ fromMs: number; toMs: number }> = [];

  /** `index`: the fill's place in its list, for the error a malformed fill raises. */
  add(fill: BacktestFill, index = this.index): ClosedTrade | null {
    return this.addParsed(parseFill(fill, index), index);
  }

  /** `add` of a fill parsed already (parseFill). */
  addParsed(parsed: ParsedFill, index = this.index): ClosedTrade | null {
    this.index = index + 1;
    const { fill } = parsed;
    const key = `${fill.strategy}\u0000${fill.market}`;
    const book = this.books.get(key) ?? { direction: parsed.direction, lots: [], since: fill.timeMs, open: ZERO, strategy: fill.strategy, market: fill.market };
    this.books.set(key, book);
    if (book.lots.length === 0) book.since = fill.timeMs;
    const t = applyFill(book, parsed);
    if (book.lots.length === 0) this.spans.push({ fromMs: book.since, toMs: fill.timeMs });
    return t;
  }

  /**
   * The open lots of `strategy`'s books, per market in the order the books began, each lot's
   * amount signed (negative short): what a replay of the strategy's own fills holds open.
   */
  *lotsOf(strategy: string): Generator<[string, Array<{ amount: Decimal; price: Decimal }>]> {
    for (const book of this.books.values()) {
      if (book.strategy !== strategy) continue;
      yield [book.market, book.lots.map((l) => ({ amount: book.direction === 'long' ? l.amount : l.amount.neg(), price: l.price }))];
    }
  }

  /** Books still open, per "strategy\u0000market". */
  open(): Map<string, OpenBook> {
    const open = new Map<string, OpenBook>();
    for (const [key, book] of this.books) {
      if (book.lots.length > 0) {
        open.set(key, { direction: book.direction, amount: openAmount(book), fee: sum(book.lots.map((l) => l.fee)), sinceMs: book.since });
      }
    }
    return open;
  }
}

/** The closed trades of fills given in time order, one at a time as they close. */
export function* tradesOf(fills: Iterable<BacktestFill>): Generator<BacktestTrade> {
  const fold = new FifoFold();
  for (const fill of fills) {
    const t = fold.add(fill);
    if (t !== null) yield t.trade;
  }
}

export function fifo(fills: readonly BacktestFill[]): FifoResult {
  const fold = new FifoFold();
  const closed: ClosedTrade[] = [];
  for (const { fill, index } of inTimeOrder(fills)) {
    const t = fold.add(fill, index);
    if (t !== null) closed.push(t);
  }
  return { closed, open: fold.open(), spans: fold.spans };
}

/** The closed round trips of `fills`, in the order they closed. */
export function roundTrips(fills: readonly BacktestFill[]): BacktestTrade[] {
  return fifo(fills).closed.map((c) => c.trade);
}

/**
 * The periods each (strategy, market) book of `fills` held a position (a flip keeps it open),
 * a position still open at the end running to `endMs`: the `positionSpans` of computeMetrics.
 */
export function positionSpans(fills: readonly BacktestFill[], endMs: number): Array<{ fromMs: number; toMs: number }> {
  const { open, spans } = fifo(fills);
  return [...spans, ...[...open.values()].map((b) => ({ fromMs: b.sinceMs, toMs: Math.max(b.sinceMs, endMs) }))];
}
