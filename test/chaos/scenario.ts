/**
 * The price plan of one cycle and the faults that go with it, drawn from the scenario's seeded
 * stream. A cycle moves BTC (spot and perpetual together) far enough for collateral-signal to
 * enter (a move beyond its threshold, held for two of its ticks), then far enough past the entry
 * for the take-profit or the stop-loss to execute, and crosses spot-grid levels on the way.
 */
import { Decimal } from '../../src/core/decimal.js';
import { between, type Rng } from './rng.js';

/** Relative moves: the signal (above the 0.1 % threshold) and the outcome (beyond the 0.3 % legs). */
export const SIGNAL_MOVE = new Decimal('0.0025');
export const OUTCOME_MOVE = new Decimal('0.0045');

export interface CyclePlan {
  /** Direction of the signal move. */
  dir: 1 | -1;
  /** The outcome moves on (take-profit) or back through the entry (stop-loss). */
  outcome: 'take_profit' | 'stop_loss';
  signalHoldMs: number;
  outcomeHoldMs: number;
  /** Kill (or stop) the daemon at this offset into the cycle and restart it; null = not this cycle. */
  restart: { atMs: number; how: 'kill' | 'term'; startupKillMs: number | null } | null;
  /** Cancel one active OCO at the venue at this offset (the bot must notice and exit); null = not. */
  cancelOco: { atMs: number; pick: number } | null;
}

function drawRestart(rng: Rng, cycleMs: number): CyclePlan['restart'] {
  if (rng() >= 0.5) return null;
  const atMs = between(rng, 0, cycleMs);
  const how = rng() < 0.8 ? 'kill' : 'term';
  // Some kills land in the start-up reconciliation of the next run.
  const startupKillMs = rng() < 0.25 ? between(rng, 100, 700) : null;
  return { atMs, how, startupKillMs };
}

/** The plan of one cycle. Without faults there are no restarts and no venue-side cancels. */
export function planCycle(rng: Rng, faults: boolean, price: Decimal, startPrice: Decimal): CyclePlan {
  // Lean back towards the start price so a long run stays near the configured markets.
  const up = price.lte(startPrice) ? rng() < 0.7 : rng() < 0.3;
  const outcome = rng() < 0.5 ? 'take_profit' : 'stop_loss';
  const signalHoldMs = between(rng, 2500, 3500);
  const outcomeHoldMs = between(rng, 2000, 3000);
  const restart = drawRestart(rng, signalHoldMs + outcomeHoldMs);
  const cancelDraw = rng();
  const pick = rng();
  const cancelOco = faults && cancelDraw < 0.2 ? { atMs: signalHoldMs - 600, pick } : null;
  return { dir: up ? 1 : -1, outcome, signalHoldMs, outcomeHoldMs, restart: faults ? restart : null, cancelOco };
}

/** Target prices of the cycle from the price at its start. */
export function cyclePrices(plan: CyclePlan, price: Decimal): { signal: Decimal; outcome: Decimal } {
  const signal = price.mul(SIGNAL_MOVE.mul(plan.dir).plus(1));
  const sign = plan.outcome === 'take_profit' ? plan.dir : -plan.dir;
  return { signal, outcome: signal.mul(OUTCOME_MOVE.mul(sign).plus(1)) };
}
