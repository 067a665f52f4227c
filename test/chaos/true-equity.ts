/**
 * The account's true equity over a chaos run, from the simulator's ground truth (not the bot's
 * view): every balance, available and held, at the market price of `<ASSET>_USDT`; positions at
 * margin plus unrealised PnL at their market's price; active flex investments. Valued here on its
 * own, not by the bot's rule, so a mistake in that rule cannot hide from the check that uses it.
 * Sampled in the background while the cycles run.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { Truth } from '../../src/simulator/index.js';
import type { VenueAdmin } from './venue.js';

export interface EquitySample {
  /** Simulator time (the chaos venue keeps the system clock, as the daemon does), ms. */
  atMs: number;
  equity: Decimal;
}

const EQUITY_ASSET = 'USDT';

function value(truth: Truth, asset: string, amount: Decimal): Decimal {
  if (asset === EQUITY_ASSET) return amount;
  const p = truth.prices[`${asset}_${EQUITY_ASSET}`];
  return p === undefined ? new Decimal(0) : amount.mul(p);
}

export function trueEquity(truth: Truth): Decimal {
  let eq = new Decimal(0);
  const assets = new Set([...Object.keys(truth.balances), ...Object.keys(truth.locked)]);
  for (const a of assets) eq = eq.plus(value(truth, a, new Decimal(truth.balances[a] ?? 0).plus(truth.locked[a] ?? 0)));
  for (const p of truth.positions) {
    const amount = new Decimal(p.amount);
    const price = truth.prices[p.market];
    const signedCost = amount.isNeg() ? new Decimal(p.entryCost).neg() : new Decimal(p.entryCost);
    const pnl = price === undefined || amount.isZero() ? new Decimal(0) : amount.mul(price).minus(signedCost);
    eq = eq.plus(p.margin).plus(pnl);
  }
  for (const f of truth.flex.investments) if (f['status'] === 'ACTIVE') eq = eq.plus(value(truth, String(f['currency']), new Decimal(String(f['amount']))));
  return eq;
}

/** Samples the true equity every `everyMs` until stopped (a failed read is skipped: the venue is busy, not wrong). */
export class EquitySampler {
  readonly samples: EquitySample[] = [];
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly admin: Pick<VenueAdmin, 'truth'>,
    private readonly everyMs = 250,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<EquitySample[]> {
    this.stopped = true;
    await this.loop;
    return this.samples;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const t = await this.admin.truth();
        this.samples.push({ atMs: t.time, equity: trueEquity(t) });
      } catch {
        // Skipped sample.
      }
      await new Promise((r) => setTimeout(r, this.everyMs));
    }
  }
}
