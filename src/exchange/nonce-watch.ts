/**
 * Detects a second signer on the API key. Two daemons (or a daemon and a script) on one key
 * without a shared nonce make the venue refuse nonces at random ("Too many requests." 429s,
 * NONCE_REJECTED) while each of them looks healthy on its own. This bot's nonces only increase
 * (nonce.ts), so a refusal it cannot explain itself points at someone else:
 * - strict mode: a refused nonce above every nonce the venue accepted from us;
 * - window mode: a refused nonce while our clock is within the venue's window (ours are unique).
 * A few such refusals within the watch window raise one alert (error log, metric, health field);
 * it clears after a quiet window and may then fire again.
 */
import type { Clock } from '../core/clock.js';
import type { NonceMode } from './nonce.js';

export interface NonceCollisionState {
  /** A second signer on the key is suspected (refusals within the last watch window). */
  suspected: boolean;
  /** Refusals this process could not explain, since start. */
  unexplained: number;
  /** Clock time of the last unexplained refusal, or null. */
  lastAtMs: number | null;
}

export interface NonceWatchOptions {
  clock: Clock;
  mode: NonceMode;
  /** Venue clock minus local clock, ms (undefined before the first reply). */
  skewMs: () => number | undefined;
  /** Called once per episode with a message naming the likely cause. */
  onSuspected: (message: string) => void;
  /** Unexplained refusals within `windowMs` that raise the alert. Default 2. */
  threshold?: number;
  /** Watch window, ms. Default 600 000. */
  windowMs?: number;
}

/** Window-mode nonces must be within ±5 s of the venue's clock: 4 s leaves a margin. */
const WINDOW_SLACK_MS = 4_000;

export type NonceOutcome = 'accepted' | 'refused' | 'unknown';

export class NonceCollisionWatch {
  private highestAccepted = 0;
  private recent: number[] = [];
  private unexplained = 0;
  private episode = false;

  constructor(private readonly options: NonceWatchOptions) {}

  /** The venue's answer to a request signed with `nonce`. */
  observe(nonce: number, outcome: NonceOutcome): void {
    if (outcome === 'accepted') this.highestAccepted = Math.max(this.highestAccepted, nonce);
    if (outcome !== 'refused' || this.explained(nonce)) return;
    const now = this.options.clock.now();
    this.forgetOld(now);
    this.recent.push(now);
    this.unexplained += 1;
    if (!this.episode && this.recent.length >= (this.options.threshold ?? 2)) {
      this.episode = true;
      this.options.onSuspected(
        `the venue refused ${this.recent.length} nonces within ${Math.round(this.windowMs() / 60_000)} min although this bot's nonces only increase: ` +
          'another process is probably signing with the same API key (a second daemon or a script). Run one daemon per key, ' +
          'or run every process on the key with a shared rate-limit store (RATE_LIMIT_REDIS_URL) and window nonces (NONCE_MODE=window)',
      );
    }
  }

  state(): NonceCollisionState {
    this.forgetOld(this.options.clock.now());
    return { suspected: this.episode, unexplained: this.unexplained, lastAtMs: this.recent.at(-1) ?? null };
  }

  private explained(nonce: number): boolean {
    if (this.options.mode === 'strict') return nonce <= this.highestAccepted;
    const skew = this.options.skewMs() ?? 0;
    const ahead = nonce - this.options.clock.now();
    return Math.abs(skew) > WINDOW_SLACK_MS || ahead > WINDOW_SLACK_MS;
  }

  private windowMs(): number {
    return this.options.windowMs ?? 600_000;
  }

  /** A quiet window ends the episode. */
  private forgetOld(now: number): void {
    this.recent = this.recent.filter((t) => t > now - this.windowMs());
    if (this.recent.length === 0) this.episode = false;
  }
}
