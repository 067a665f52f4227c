/**
 * The refill of a local bucket, on the injected Clock and on a fixed grid: every I ms, A tokens,
 * capped at C, exactly as Bottleneck's Redis scripts do it (they count whole intervals since a
 * grid point). Bottleneck's own local refill (`reservoirIncreaseInterval` + heartbeat) restarts
 * its interval at each late heartbeat, so every millisecond of event-loop lag is lost for good:
 * under load it delivered 87-95 % of the configured rate, which the budget cannot spare.
 *
 * Late timers catch up whole intervals (never beyond C), so the tokens a window can gain are
 * still at most A per grid point in it: the bound of bucket.ts holds unchanged. Every change of
 * the level (refill, pause) goes through one chain, so two never read the same stale level.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { BucketPlan } from './bucket.js';

/** The part of a Bottleneck limiter the refill drives. */
export interface Reservoir {
  currentReservoir(): Promise<number | null>;
  incrementReservoir(by: number): Promise<number>;
}

export class GridRefill {
  private lastMs: number;
  private timer: TimerHandle | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  /**
   * Grid points of the refill queued on the chain and not yet applied, while no other change was
   * queued after it: later ticks join it instead of queueing a read of the level each. A clock
   * that fires every grid point of a long jump one by one (the backtest's virtual clock) then
   * costs one read per jump, not one per grid point (docs/backtesting.md § Speed). The capped sum
   * is the same as applying them one by one: min(C, min(C, L + A) + A) = min(C, L + 2A).
   */
  private open: { intervals: number } | undefined;

  constructor(
    private readonly reservoir: Reservoir,
    private readonly plan: BucketPlan,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {
    this.lastMs = clock.now();
    this.arm();
  }

  /** Applies `delta(level)` to the bucket, after every earlier change. */
  adjust(delta: (level: number) => number): Promise<void> {
    // Anything queued after an open refill keeps its place: later grid points go after it.
    this.open = undefined;
    return this.enqueue(delta);
  }

  private enqueue(delta: (level: number) => number): Promise<void> {
    this.chain = this.chain
      .then(async () => {
        const level = (await this.reservoir.currentReservoir()) ?? 0;
        const by = delta(level);
        if (by !== 0) await this.reservoir.incrementReservoir(by);
      })
      .catch((err: unknown) => this.onError(err));
    return this.chain;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.stopped) return;
    const due = this.lastMs + this.plan.increaseIntervalMs;
    this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, due - this.clock.now()));
  }

  private tick(): void {
    const { increaseAmount, increaseIntervalMs, capacity } = this.plan;
    const intervals = Math.floor((this.clock.now() - this.lastMs) / increaseIntervalMs);
    if (intervals > 0) {
      this.lastMs += intervals * increaseIntervalMs;
      if (this.open !== undefined) this.open.intervals += intervals;
      else {
        const refill = { intervals };
        this.open = refill;
        // Never above C: a level read a moment ago is at least the current one (only grants and
        // pauses lower it, and pauses share this chain), so the cap holds.
        void this.enqueue((level) => {
          if (this.open === refill) this.open = undefined;
          return Math.max(0, Math.min(refill.intervals * increaseAmount, capacity - level));
        });
      }
    }
    this.arm();
  }
}
