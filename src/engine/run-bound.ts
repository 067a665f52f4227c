/**
 * The scheduler's global bound (src/engine/scheduler.ts): at most `limit` lanes' work runs at
 * once; work over the bound waits and starts in the order it came, as running work ends. What
 * p-queue's queue did with a concurrency of `limit`, without its per-task bookkeeping (ids, a
 * symbol, a running-task record, events, timeouts and abort signals the scheduler never used),
 * which cost about a microsecond on every job fire.
 */
export class RunBound {
  private running = 0;
  /** Work waiting for a slot, oldest first. */
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`bound: expected an integer >= 1, got ${limit}`);
  }

  /** Work running now. */
  get active(): number {
    return this.running;
  }

  /** Work waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` now when a slot is free (synchronously, as p-queue started it), else once one is. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    // A slot is handed over by the work that frees it, so `running` already counts this one.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
