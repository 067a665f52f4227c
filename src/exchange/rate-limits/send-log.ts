/**
 * What this process sent in the last window, for the `used` figure of a pool (metrics only: the
 * limiter itself is Bottleneck's bucket). Pruned on every send, not only when someone reads it:
 * a daemon whose metrics are never scraped must not keep every request's record.
 */
import type { Clock } from '../../core/clock.js';

export class SendLog {
  private readonly sent: { at: number; weight: number }[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  record(weight: number): void {
    const now = this.clock.now();
    this.sent.push({ at: now, weight });
    this.forgetOld(now);
  }

  /** Weight sent within the last window. */
  used(): number {
    this.forgetOld(this.clock.now());
    return this.sent.reduce((a, s) => a + s.weight, 0);
  }

  /** Records kept (all within the last window); for tests of the bound. */
  get size(): number {
    return this.sent.length;
  }

  private forgetOld(now: number): void {
    const from = now - this.windowMs;
    let drop = 0;
    while (drop < this.sent.length && this.sent[drop]!.at <= from) drop++;
    if (drop > 0) this.sent.splice(0, drop);
  }
}
