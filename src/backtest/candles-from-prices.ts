/**
 * One-minute OHLCV candles built from a `time,price[,volume]` series (the committed sample):
 * the sample's minute-to-minute moves are replayed again and again, each pass continuing from
 * where the last one ended, every other pass backwards in time (so the price wanders inside the
 * sample's range instead of compounding its drift), for as many candles as asked; each candle opens at the previous close,
 * closes at the next price, and reaches beyond both by half its own move (on the tick grid). A
 * benchmark and test fixture with the sample's character, not market data. Written as a stream.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Decimal } from '../core/decimal.js';
import type { PriceRow } from './price-csv.js';

export interface CandleOptions {
  startMs: number;
  candles: number;
  tick: string;
}

/** The candle lines (header first) replaying `prices`' relative moves from its first price. */
export function* candleLines(prices: readonly PriceRow[], o: CandleOptions): Generator<string> {
  const tick = new Decimal(o.tick);
  const dp = tick.decimalPlaces();
  const onTick = (d: Decimal): Decimal => d.div(tick).round().mul(tick);
  yield 'time,open,high,low,close,volume';
  let close = (prices[0] as PriceRow).price;
  for (let i = 0; i < o.candles; i++) {
    const moves = prices.length - 1;
    const backwards = Math.floor(i / moves) % 2 === 1;
    const k = backwards ? moves - (i % moves) : 1 + (i % moves);
    const [from, to] = [(prices[k - 1] as PriceRow).price, (prices[k] as PriceRow).price];
    const ratio = backwards ? from.div(to) : to.div(from);
    const open = close;
    close = Decimal.max(tick, onTick(open.mul(ratio)));
    const half = onTick(close.minus(open).abs().div(2));
    const high = Decimal.max(open, close).plus(half);
    const low = Decimal.max(tick, Decimal.min(open, close).minus(half));
    const volume = (prices[k] as PriceRow).volume ?? new Decimal(1);
    const time = new Date(o.startMs + i * 60_000).toISOString().replace('.000Z', 'Z');
    yield `${time},${open.toFixed(dp)},${high.toFixed(dp)},${low.toFixed(dp)},${close.toFixed(dp)},${volume.toFixed()}`;
  }
}

/** Writes the candles to `file`, a line at a time. */
export async function writeCandles(file: string, prices: readonly PriceRow[], o: CandleOptions): Promise<void> {
  const out = createWriteStream(file);
  let buf: string[] = [];
  for (const line of candleLines(prices, o)) {
    buf.push(line);
    if (buf.length >= 4096) {
      if (!out.write(`${buf.join('\n')}\n`)) await once(out, 'drain');
      buf = [];
    }
  }
  out.end(buf.length > 0 ? `${buf.join('\n')}\n` : '');
  await once(out, 'finish');
}
