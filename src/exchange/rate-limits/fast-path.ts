/**
 * The fast path of a local pool: a call whose tokens are in the bucket right now, with nobody
 * waiting in the queue, takes them synchronously and runs at once.
 *
 * Why. Bottleneck's local datastore answers every step of a job (submit, register, free) after a
 * `setTimeout(0)`, and starts a granted job after one more: about four timer turns, ~4.5 ms, on
 * every request even when the budget is wide open, and one limiter could not grant more than
 * ~400 jobs/s (docs/request-path.md). No Bottleneck option removes those timers.
 *
 * What stays Bottleneck's. The tokens are taken from Bottleneck's own reservoir (the bucket of
 * bucket.ts, refilled by grid-refill.ts), so there is one budget and the bound of bucket.ts is
 * unchanged. As soon as the bucket cannot cover a call, or any job waits in Bottleneck's queue
 * (received or queued), calls go through Bottleneck: its priorities, its bounded queue and the
 * deadlines decide, and a later call never overtakes a waiting one.
 *
 * The tokens are taken when the job claims its ticket, right before it signs and sends, not
 * when it starts: a job that first waits for the strict send lane holds no tokens while it
 * waits, so nothing granted lags behind its send. If the bucket ran dry (or a job began to wait
 * in Bottleneck) by then, the call sends nothing and goes through Bottleneck after all.
 */
import type Bottleneck from 'bottleneck';
import { TokensGone, type JobTicket } from './ticket.js';

/**
 * Fast-path calls that may wait for the strict send lane before their claim. They hold no tokens
 * while they wait, so nothing else would bound them: beyond this many, calls queue in Bottleneck,
 * whose queue is bounded (`maxQueued`) and ordered by priority.
 */
const MAX_LANE_WAITERS = 16;

/** The part of Bottleneck 2.19.5's local datastore read here: the reservoir is a plain field. */
interface LocalStore {
  storeOptions: { reservoir: number | null };
}

export class FastPath {
  /** Calls started here and not yet claimed (waiting for the strict send lane). */
  private laneWaiters = 0;

  private constructor(
    private readonly limiter: Bottleneck,
    private readonly store: LocalStore,
  ) {}

  /**
   * For a local limiter whose reservoir can be read synchronously; undefined otherwise (every
   * call then goes through Bottleneck, as before).
   */
  static of(limiter: Bottleneck): FastPath | undefined {
    const store = (limiter as unknown as { _store?: Partial<LocalStore> })._store;
    if (typeof store?.storeOptions?.reservoir !== 'number') return undefined;
    return new FastPath(limiter, store as LocalStore);
  }

  /** True when a call of `weight` may take the fast path now. */
  admits(weight: number): boolean {
    return this.laneWaiters < MAX_LANE_WAITERS && this.open(weight);
  }

  /**
   * Runs the job now; it takes its tokens at the claim. A job that claims at once (window
   * nonces) needs no deadline; one that waits for the strict send lane first is held to it.
   * Undefined: the tokens were gone at the claim, nothing was sent, the call must queue (its
   * deadline keeps running).
   */
  async run<T>(weight: number, job: (ticket: JobTicket) => Promise<T>, ticket: JobTicket): Promise<{ value: T } | undefined> {
    let waiting = false;
    const leave = (): void => {
      if (waiting) this.laneWaiters -= 1;
      waiting = false;
    };
    ticket.takeAtClaim = () => {
      leave();
      return this.take(weight);
    };
    let queueIt = false;
    try {
      const run = job(ticket);
      if (ticket.claimed) return { value: await run };
      this.laneWaiters += 1;
      waiting = true;
      run.catch(() => undefined); // the caller may leave at its deadline
      return { value: await Promise.race([run, ticket.expired()]) };
    } catch (err) {
      queueIt = err instanceof TokensGone;
      if (queueIt) return undefined;
      throw err;
    } finally {
      leave();
      if (!queueIt) ticket.dispose();
    }
  }

  /** True when the bucket covers `weight` and nobody waits in Bottleneck. */
  open(weight: number): boolean {
    const { reservoir } = this.store.storeOptions;
    if (reservoir === null || reservoir < weight) return false;
    const counts = this.limiter.counts();
    return counts.RECEIVED + counts.QUEUED === 0;
  }

  /** Takes `weight` tokens now if open(weight); true when taken. */
  take(weight: number): boolean {
    if (!this.open(weight)) return false;
    this.store.storeOptions.reservoir! -= weight;
    return true;
  }
}
