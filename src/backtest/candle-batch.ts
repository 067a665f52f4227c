/**
 * Commits a backtest's store once per `every` price steps instead of once per `store.tx` (about
 * seven a step): the run loop opens the scratch store's batch before a step's jobs and commits it
 * after the step that completes the count, so the engine's own transactions become savepoints
 * inside it (src/store/index.ts `StoreBatch`).
 *
 * A job that fails inside a step fails as it does in the daemon (its own `store.tx` rolls back,
 * the scheduler logs it) and the batch still commits what the other writes made: the same rows
 * the daemon's separate commits would keep. A run that fails ends with its store, the open batch
 * discarded with it.
 */
import type { StoreBatch } from '../store/index.js';

/**
 * Steps per commit: an hour of one-minute candles. A commit writes the pages the batch changed to
 * the file (SQLite's page writes: system time); one per step cost about 60 µs a candle, one per
 * 60 steps about 8 µs. The rollback journal (in memory) holds the original of each page the batch
 * changes that existed when it began, once: bounded by the pages an hour of writes touches (the
 * tables' hot ends and index pages), about 0.3 MB at most in a 4-day run (docs/backtesting.md § Speed).
 */
export const STEPS_PER_COMMIT = 60;

export class CandleBatches {
  private steps = 0;

  constructor(
    private readonly batch: StoreBatch,
    private readonly every = STEPS_PER_COMMIT,
  ) {}

  /** Before a step's work: opens the batch unless it is open. */
  begin(): void {
    if (!this.batch.open) this.batch.begin();
  }

  /** After a step's work: commits every `every` steps. */
  stepDone(): void {
    this.steps++;
    if (this.steps % this.every === 0) this.batch.commit();
  }

  /** The run's last step is done: commits what is left. */
  end(): void {
    this.batch.commit();
  }
}
