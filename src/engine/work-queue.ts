/**
 * A first-in first-out queue of async work that runs at most `limit` items at once: the
 * scheduler's lanes (limit 1) and its global bound. What the scheduler used from p-queue, without
 * what it paid for on every call and never used (ids, priorities, abort signals, interval
 * windows, events): a job fires once per candle per job in a backtest, so that cost was paid
 * hundreds of thousands of times a year.
 */
export class WorkQueue {
  /** Work waiting for a slot, each as the call that starts it. */
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`concurrency must be an integer from 1 up, got ${limit}`);
  }

  /** Items waiting for a slot. */
  get size(): number {
    return this.waiting.length;
  }

  /** Items running. */
  get pending(): number {
    return this.running;
  }

  /** Runs `fn` when a slot is free (at once when one is and nothing waits); settles as `fn` does. */
  add<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running < this.limit && this.waiting.length === 0) return this.start(fn);
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => void this.start(fn).then(resolve, reject));
    });
  }

  /** Resolves once nothing runs or waits (at once when idle already). */
  onIdle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async start<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.next();
    }
  }

  /** A slot came free: the oldest waiting item takes it, or the idle waiters hear that all is done. */
  private next(): void {
    const start = this.waiting.shift();
    if (start !== undefined) return start();
    if (this.running > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
