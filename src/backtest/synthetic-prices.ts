/**
 * Synthetic one-minute prices in the price CSV format, from a seed: the committed sample data
 * (samples/generate-prices.ts) and the benchmark's year come from here, so both can be rebuilt
 * byte for byte. A random walk with volatility clustering (calm and busy hours) and a volume that
 * grows with the size of the move; prices rounded to `tick`. With `ohlcv`, each minute is a candle
 * (`time,open,high,low,close,volume`): it opens at the previous close, closes where the walk goes,
 * and its wicks reach past both by a random share of the hour's volatility. Not market data: a
 * test fixture.
 */
import { Decimal } from '../core/decimal.js';
import { seededRandom } from '../core/random.js';

export interface SyntheticOptions {
  startMs: number;
  minutes: number;
  seed: number;
  startPrice: string;
  /** Standard deviation of the one-minute relative move. */
  volatility: string;
  tick: string;
  /** One-minute OHLCV candles instead of `time,price,volume` rows. */
  ohlcv?: boolean;
}

function normal(next: () => number): number {
  const u = 1 - next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

export function syntheticCsv(o: SyntheticOptions): string {
  const next = seededRandom(o.seed);
  const tick = new Decimal(o.tick);
  const vol = new Decimal(o.volatility);
  let price = new Decimal(o.startPrice);
  let regime = 1;
  const lines = [o.ohlcv === true ? 'time,open,high,low,close,volume' : 'time,price,volume'];
  const places = tick.decimalPlaces();
  // The random factors are not money: doubles fixed to 12 places before they touch Decimal.
  const draw = (scale: number): Decimal => new Decimal((normal(next) * scale).toFixed(12));
  for (let i = 0; i < o.minutes; i++) {
    if (i % 60 === 0) regime = 0.5 + next() * 1.5;
    const open = price;
    price = price.mul(vol.mul(draw(regime)).plus(1)).div(tick).round().mul(tick);
    const volume = new Decimal((0.2 + Math.abs(normal(next)) * regime * 1.5).toFixed(4));
    const time = new Date(o.startMs + i * 60_000).toISOString().replace('.000Z', 'Z');
    if (o.ohlcv !== true) {
      lines.push(`${time},${price.toFixed(places)},${volume.toFixed(4)}`);
      continue;
    }
    const up = vol.mul(draw(regime * 0.6).abs());
    const down = vol.mul(draw(regime * 0.6).abs());
    const high = Decimal.max(open, price).mul(up.plus(1)).div(tick).ceil().mul(tick);
    const low = Decimal.min(open, price).mul(new Decimal(1).minus(down)).div(tick).floor().mul(tick);
    lines.push(`${time},${[open, high, low, price].map((d) => d.toFixed(places)).join(',')},${volume.toFixed(4)}`);
  }
  return `${lines.join('\n')}\n`;
}
