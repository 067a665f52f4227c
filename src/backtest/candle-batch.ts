/**
 * Commits a backtest's store once per price step (or per `every` steps) instead of once per
 * `store.tx`: the run loop opens the scratch store's batch before a step's jobs and commits it
 * after them, so the engine's own transactions become savepoints inside it (src/store/index.ts
 * `StoreBatch`). A commit writes the step's dirty pages to the file; one per step instead of
 * about seven (docs/backtesting.md § Speed).
 *
 * A job that fails inside a step fails as it does in the daemon (its own `store.tx` rolls back,
 * the scheduler logs it) and the batch still commits what the other writes made: the same rows
 * the daemon's separate commits would keep. A run that fails ends with its store, the open batch
 * discarded with it.
 */
import type { StoreBatch } from '../store/index.js';

/**
 * Steps per commit. The rollback journal (in memory) holds each page a batch changes once, so it
 * grows with the distinct pages written between commits; one step keeps it to a few pages, and
 * more steps per commit saved no measurable time (docs/backtesting.md § Speed).
 */
export const STEPS_PER_COMMIT = 1;

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
