/**
 * The backtest's time: a clock that moves only when the run loop moves it, from event to event
 * (docs/backtesting.md). Like `ManualClock` (src/core/clock.ts), but its timers sit in a heap and
 * it answers when the next one is due, so a year of one-minute steps costs no scan of every timer.
 */
import type { Clock, TimerHandle } from '../core/clock.js';

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

function before(a: Timer, b: Timer): boolean {
  return a.due < b.due || (a.due === b.due && a.id < b.id);
}

export class VirtualClock implements Clock {
  private current: number;
  private heap: Timer[] = [];
  /** Ids of timers in the heap that are still to fire, and of those cleared before they fired. */
  private readonly live = new Set<number>();
  private readonly cancelled = new Set<number>();
  private nextId = 1;

  constructor(startMs: number) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.push({ id, due: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    // A timer that already fired (or was cleared) leaves nothing behind: the sets stay bounded.
    if (this.live.delete(handle.id)) this.cancelled.add(handle.id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) return reject(signal.reason);
      const onAbort = (): void => {
        this.clearTimeout(handle);
        reject(signal?.reason);
      };
      const handle = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Due time of the earliest live timer, or undefined when none is pending. */
  nextDue(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.due;
  }

  /** Moves to `targetMs` (never back), firing every timer due on the way, each at its own due time. */
  advanceTo(targetMs: number): void {
    for (;;) {
      this.dropCancelled();
      const top = this.heap[0];
      if (top === undefined || top.due > targetMs) break;
      this.pop();
      this.live.delete(top.id);
      this.current = Math.max(this.current, top.due);
      top.fn();
    }
    this.current = Math.max(this.current, targetMs);
  }

  private dropCancelled(): void {
    for (let top = this.heap[0]; top !== undefined && this.cancelled.has(top.id); top = this.heap[0]) {
      this.cancelled.delete(top.id);
      this.pop();
    }
  }

  private push(t: Timer): void {
    this.live.add(t.id);
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i] as Timer, h[parent] as Timer)) break;
      [h[i], h[parent]] = [h[parent] as Timer, h[i] as Timer];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l] as Timer, h[m] as Timer)) m = l;
      if (r < h.length && before(h[r] as Timer, h[m] as Timer)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Timer, h[i] as Timer];
      i = m;
    }
  }
}
