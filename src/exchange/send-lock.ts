/**
 * Strict-nonce send lane. In strict mode the venue refuses any nonce not greater than the last
 * one it saw for the key, so requests signed n and n+1 must also ARRIVE in that order. Two
 * requests in flight on two sockets can overtake each other, so strict mode sends private
 * requests one at a time: sign, send, and wait for the reply (or timeout) before the next one
 * signs. Waiters are served by priority (cancels first), then in arrival order.
 * It is taken inside a pool's Bottleneck job, after the bucket granted the tokens: that is why
 * the pools behind it let only one job's weight wait here at a time (rate-limits/limiters.ts).
 * A call on a pool's fast path waits here holding no tokens and takes them at its claim
 * (rate-limits/fast-path.ts).
 * Window mode (`nonceWindow`) accepts any unique nonce within ±5 s and needs no lane.
 */
export class PriorityLock {
  private held = false;
  private seq = 0;
  private readonly waiters: { priority: number; seq: number; wake: () => void }[] = [];

  /** Resolves with a release function once the lock is held. */
  async acquire(priority: number): Promise<() => void> {
    if (this.held) {
      await new Promise<void>((wake) => {
        this.waiters.push({ priority, seq: this.seq++, wake });
        this.waiters.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
      });
    }
    return this.hold();
  }

  /**
   * The release function when the lock is free now (nobody can be waiting then: a release hands
   * it straight to the next waiter), else undefined. Spares a free lane's promise turn.
   */
  tryAcquire(): (() => void) | undefined {
    return this.held ? undefined : this.hold();
  }

  private hold(): () => void {
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next === undefined) this.held = false;
      else next.wake(); // handed over directly: `held` stays true
    };
  }

  get waiting(): number {
    return this.waiters.length;
  }
}
