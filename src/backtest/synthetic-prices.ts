/**
 * Synthetic one-minute prices in the price CSV format, from a seed: the committed sample data
 * (samples/generate-prices.ts) and the benchmark's year come from here, so both can be rebuilt
 * byte for byte. A random walk with volatility clustering (calm and busy hours) and a volume that
 * grows with the size of the move; prices rounded to `tick`. Not market data: a test fixture.
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
  const lines = ['time,price,volume'];
  for (let i = 0; i < o.minutes; i++) {
    if (i % 60 === 0) regime = 0.5 + next() * 1.5;
    // The random factors are not money: doubles fixed to 12 places before they touch Decimal.
    const z = new Decimal((normal(next) * regime).toFixed(12));
    price = price.mul(vol.mul(z).plus(1)).div(tick).round().mul(tick);
    const volume = new Decimal((0.2 + Math.abs(normal(next)) * regime * 1.5).toFixed(4));
    lines.push(`${new Date(o.startMs + i * 60_000).toISOString().replace('.000Z', 'Z')},${price.toFixed(tick.decimalPlaces())},${volume.toFixed(4)}`);
  }
  return `${lines.join('\n')}\n`;
}
