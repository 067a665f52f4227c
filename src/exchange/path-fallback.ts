/**
 * An endpoint served at one of two paths (docs/live-service.md §5: the conditional listing). After the
 * primary path answers 404 the fallback is used, but only for a while: a venue that once lacked
 * the spec's path may add it, and a 404 from a misrouted proxy must not pin the client to the
 * other path for the life of the process. Time comes from the caller (the injected clock).
 */
export class PathFallback {
  private missingSince: number | undefined;

  constructor(
    readonly primary: string,
    readonly fallback: string,
    /** How long after a primary 404 the primary is tried again, ms. */
    readonly retryPrimaryAfterMs: number,
  ) {}

  /** The path to call at `nowMs`. */
  path(nowMs: number): string {
    if (this.missingSince === undefined) return this.primary;
    // A clock that stepped back counts as still within the window.
    return nowMs - this.missingSince >= this.retryPrimaryAfterMs ? this.primary : this.fallback;
  }

  /** The primary path answered 404 at `nowMs`. */
  primaryMissing(nowMs: number): void {
    this.missingSince = nowMs;
  }
}
