/**
 * The random walk over many steps in one go, for catching up after idle time without per-step
 * work (see `Venue.catchUp`). Over `k` steps the walk's log-price is taken as Brownian motion
 * with drift: it ends at `k·drift + volatility·√k·z`, and its lowest and highest points on the
 * way are drawn from the exact law of a Brownian bridge's extremes given its ends
 * (P(max > m) = exp(-2m(m - b) / s²), s² = volatility²·k, solved for m at a uniform draw).
 * Everything after the draws is Decimal (ln, exp, sqrt), so the same seed gives the same figures
 * on every platform; at 24 digits, not money's 60: these are random factors, and ln/exp at 60
 * digits would cost a catch-up more than the walk it replaces.
 */
import { Decimal } from '../core/decimal.js';
import type { Prng } from './prng.js';

/** Price factors relative to the start price: where the jump ends, and its lowest and highest point. */
export interface JumpFactors {
  end: Decimal;
  low: Decimal;
  high: Decimal;
}

const TWO_POW_32 = 4294967296;

const Draw = Decimal.clone({ precision: 24 });

/** Uniform in (0, 1], exact (a multiple of 2^-32, never 0, so its logarithm is finite). */
function uniformOpenZero(prng: Prng): Decimal {
  return new Draw(TWO_POW_32 - prng.nextUint32()).div(TWO_POW_32);
}

/** Draws the factors of a `steps`-step jump: three draws from `prng`, always in the same order. */
export function jumpFactors(steps: number, drift: Decimal, volatility: Decimal, prng: Prng): JumpFactors {
  const k = new Draw(steps);
  // The normal draw is not money: a plain double fixed to 12 places before it touches Decimal.
  const z = new Draw(prng.normal().toFixed(12));
  const vol = new Draw(volatility);
  const b = new Draw(drift).mul(k).plus(vol.mul(k.sqrt()).mul(z));
  const twoS2 = vol.pow(2).mul(k).mul(2);
  const reach = (): Decimal => b.pow(2).minus(twoS2.mul(Draw.ln(uniformOpenZero(prng)))).sqrt();
  const up = reach();
  const down = reach();
  return {
    end: new Decimal(Draw.exp(b)),
    high: new Decimal(Draw.exp(b.plus(up).div(2))),
    low: new Decimal(Draw.exp(b.minus(down).div(2))),
  };
}
