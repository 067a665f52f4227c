/**
 * Clock skew from reply `Date` headers (docs/failure-modes.md #7). A header far from local time is not a
 * skew to act on: a proxy or cache serving a stale or zeroed `Date` (1970) would otherwise move
 * the reconciler's scan anchor to the epoch and invalidate every window-mode nonce. Such a header
 * is ignored for the measurement, counted, and warned about once.
 */
import type { Logger } from '../observability/logger.js';

/** Beyond a day apart, the header is wrong rather than either clock. */
export const MAX_PLAUSIBLE_SKEW_MS = 86_400_000;

export class SkewMeter {
  private last: number | undefined;
  private rejectedCount = 0;

  /** `logger` is read when a warning is due (the client sets its logger after this is built). */
  constructor(private readonly logger: () => Logger) {}

  /** One measurement: server time minus local time, ms. */
  record(skewMs: number): void {
    if (Number.isFinite(skewMs) && Math.abs(skewMs) <= MAX_PLAUSIBLE_SKEW_MS) {
      this.last = skewMs;
      return;
    }
    this.rejectedCount++;
    if (this.rejectedCount === 1) {
      this.logger().warn(
        { skewMs: Number.isFinite(skewMs) ? skewMs : String(skewMs), maxPlausibleSkewMs: MAX_PLAUSIBLE_SKEW_MS },
        'venue reply Date header is more than a day from local time: ignored for the clock-skew measurement (further ones are only counted)',
      );
    }
  }

  /** The last plausible skew, ms; undefined before one was measured. */
  skewMs(): number | undefined {
    return this.last;
  }

  /** How many replies carried a `Date` header too far from local time to be a skew. */
  rejected(): number {
    return this.rejectedCount;
  }
}
