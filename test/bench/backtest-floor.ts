/**
 * The floor a backtest is measured against: a plain loop over the same one-minute candles that does
 * each step's work once, all in decimal.js: parse the row, update an incremental moving average,
 * check one resting order against the candle, book a fill with its fee. No engine, no venue, no
 * store: what the hardware does with the same data and the same money arithmetic.
 */
import { Decimal } from '../../src/core/decimal.js';
import { fileLines } from '../../src/backtest/line-reader.js';

const WINDOW = 20;
const FEE = new Decimal('0.001');
const AMOUNT = new Decimal('0.001');

interface Book {
  cash: Decimal;
  base: Decimal;
  fills: number;
}

/** One pass over `file` (time,open,high,low,close,volume); returns the candles read and the book. */
export function floorLoop(file: string): { candles: number; book: Book } {
  const ring: Decimal[] = [];
  let sum = new Decimal(0);
  let resting: { side: 'buy' | 'sell'; price: Decimal } | null = null;
  const book: Book = { cash: new Decimal(10_000), base: new Decimal(0), fills: 0 };
  let candles = 0;
  for (const { text, lineNo } of fileLines(file)) {
    if (lineNo === 1 || text === '') continue;
    const cells = text.split(',');
    const high = new Decimal(cells[2] as string);
    const low = new Decimal(cells[3] as string);
    const close = new Decimal(cells[4] as string);
    candles++;
    ring.push(close);
    sum = sum.plus(close);
    if (ring.length > WINDOW) sum = sum.minus(ring.shift() as Decimal);
    if (resting !== null && (resting.side === 'buy' ? low.lt(resting.price) : high.gt(resting.price))) {
      const quote = AMOUNT.mul(resting.price);
      const fee = quote.mul(FEE);
      book.cash = resting.side === 'buy' ? book.cash.minus(quote).minus(fee) : book.cash.plus(quote).minus(fee);
      book.base = resting.side === 'buy' ? book.base.plus(AMOUNT) : book.base.minus(AMOUNT);
      book.fills++;
      resting = null;
    }
    if (resting === null && ring.length === WINDOW) {
      const ma = sum.div(WINDOW);
      resting = close.gt(ma) ? { side: 'buy', price: ma.toDecimalPlaces(2) } : { side: 'sell', price: ma.toDecimalPlaces(2) };
    }
  }
  return { candles, book };
}
