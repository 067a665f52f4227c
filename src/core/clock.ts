/**
 * The one source of time. Everything that needs "now" or a timer takes a `Clock`; the system
 * clock reads the OS, tests drive a `ManualClock`, and the simulator may run an accelerated one.
 * Nothing else calls `Date.now()` or sets bare timers (enforced by lint).
 */
export interface TimerHandle {
  /** Opaque; pass back to `clearTimeout`. */
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds of this clock's time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Real time. Timers are unref'd so a pending timer never keeps the process alive by itself. */
export class SystemClock implements Clock {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private nextId = 1;

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const t = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, Math.max(0, ms));
    t.unref();
    this.timers.set(id, t);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const t = this.timers.get(handle.id);
    if (t !== undefined) {
      clearTimeout(t);
      this.timers.delete(handle.id);
    }
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
}

interface PendingTimer {
  id: number;
  due: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to. `advance` fires due timers in due order (ties in
 * creation order), each with `now()` equal to its due time.
 */
export class ManualClock implements Clock {
  private current: number;
  private pending: PendingTimer[] = [];
  private nextId = 1;

  constructor(startMs = 1_700_000_000_000) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.pending.push({ id, due: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((t) => t.id !== handle.id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** Number of timers not yet fired. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  advanceTo(targetMs: number): void {
    for (;;) {
      const next = this.pending
        .filter((t) => t.due <= targetMs)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (next === undefined) break;
      this.pending = this.pending.filter((t) => t !== next);
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = Math.max(this.current, targetMs);
  }

  /** Advances in steps, yielding to the event loop between them so awaited work can progress. */
  async advanceAsync(ms: number, stepMs = ms): Promise<void> {
    const target = this.current + ms;
    while (this.current < target) {
      this.advanceTo(Math.min(target, this.current + stepMs));
      await new Promise<void>((r) => setImmediate(r));
    }
  }
}

/**
 * Time that runs `speed` times faster than the system clock from `startMs` (the simulator's
 * accelerated mode). Timers are scaled accordingly.
 */
export class ScaledClock implements Clock {
  private readonly base: SystemClock;
  private readonly realStart: number;

  constructor(
    private readonly startMs: number,
    private readonly speed: number,
    base: SystemClock = new SystemClock(),
  ) {
    if (!(speed > 0)) throw new RangeError('ScaledClock speed must be > 0');
    this.base = base;
    this.realStart = base.now();
  }

  now(): number {
    return Math.floor(this.startMs + (this.base.now() - this.realStart) * this.speed);
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.base.setTimeout(fn, ms / this.speed);
  }

  clearTimeout(handle: TimerHandle): void {
    this.base.clearTimeout(handle);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
}
