/**
 * Waiting for the engine between two steps of the run loop (run.ts): a job fired, or a start-up
 * step, is driven until it and everything it queued is done, so the next job starts from the same
 * state every time.
 *
 * What can still queue scheduler work once a job's promise has resolved:
 * - continuations the job left behind without awaiting them: the journal's delivery of an order's
 *   final state (`queueMicrotask`, src/daemon/order-events.ts) and p-queue's release of a lane
 *   (also a microtask). A fill's `onFill` is queued synchronously, inside the reconcile pass;
 * - replies and timers: a request the venue has not answered (`--venue http`), a call waiting in a
 *   client rate-limit pool, a hook running in a worker thread (its lane is busy until it replies).
 *
 * The first kind is drained without an event-loop turn: a `process.nextTick` queued from a promise
 * continuation runs only once the microtask queue is empty (Node runs every pending continuation,
 * and those they queue, before its tick queue), and before any timer, I/O or `setImmediate`. (A
 * tick queued earlier by other code would run first and its continuations after ours: nothing on
 * the engine's in-process path queues work from a tick.) The
 * second kind is visible (scheduler lanes busy, venue requests in flight, pool queues not empty):
 * then, and only then, the settler waits real event-loop turns as the wire path needs.
 *
 * A run that never waits a turn would never see a signal (Ctrl-C), a timer or a write finish:
 * `breathe` lets the event loop turn once whenever `BREATHE_MS` of real time went by without one.
 * A turn with nothing of the engine pending changes nothing it computes.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BacktestVenue } from './sim-venue.js';
import type { Wired } from './engine-wiring.js';
import type { VirtualClock } from './virtual-clock.js';

/**
 * Real time the engine may stay busy without sending the venue anything before the clock jumps
 * anyway (a retry back-off sleeping on the virtual clock; none happens without venue faults).
 */
const WATCHDOG_MS = 10_000;

/**
 * How long calls may sit queued in a rate-limit pool, with the venue idle and no new request
 * arriving, before they count as waiting for the pool's refill: at least this many event-loop
 * turns and this much real time. A call with tokens leaves the queue within a few turns; one
 * behind a request still being read takes less than this even on a loaded machine.
 */
const QUEUED_TURNS = 50;
const QUEUED_MS = 100;

/** Real time the run loop may go on continuations alone before it lets the event loop turn. */
const BREATHE_MS = 20;

/** True when a rate-limit pool of the client has calls waiting in its queue while the venue has no request to answer. */
function queuedOnLimits(w: Wired | undefined, venue: BacktestVenue): boolean {
  if (w === undefined || venue.inFlight() > 0) return false;
  // Polled every turn: the cheap count, not rateLimitStatus() (its bucket refresh was ~13% of a run's CPU).
  return w.link.queued() > 0;
}

/** Turns and real time since the venue last received a request while calls sat queued. */
class Stall {
  turns = 0;
  private quietSince = performance.now();
  private queuedSince = performance.now();
  private seen = -1;
  /** Jumped already in this wait: the next refills follow without waiting real time again. */
  private jumped = false;

  observe(received: number, queued: boolean): void {
    const now = performance.now();
    if (received !== this.seen) {
      this.seen = received;
      this.jumped = false;
      this.quietSince = now;
      this.turns = 0;
      this.queuedSince = now;
    }
    if (!queued) {
      this.turns = 0;
      this.queuedSince = now;
    } else this.turns++;
  }

  waitingOnLimits(): boolean {
    return this.turns > QUEUED_TURNS && (this.jumped || performance.now() - this.queuedSince > QUEUED_MS);
  }

  quietTooLong(): boolean {
    return performance.now() - this.quietSince > WATCHDOG_MS;
  }

  /** After a jump: the wait goes on until the venue receives a request. */
  jumpedNow(): void {
    this.jumped = true;
    this.turns = 0;
    this.quietSince = performance.now();
  }
}

/** Waiting for the engine: until a job fired (or a start-up step) and what it queued is done. */
export interface Settle {
  /**
   * One event-loop turn if none was taken for `BREATHE_MS` of real time (signals, timers, output);
   * undefined, nothing to wait for, otherwise (most steps: no promise made for them).
   */
  breathe(): Promise<void> | undefined;
  drive<T>(work: Promise<T>): Promise<T>;
}

/**
 * Waits until the engine is idle. Work waiting on the virtual clock cannot finish by itself: when
 * calls wait in a rate-limit pool the clock jumps to its next timer (the pool's refill).
 */
export function settler(clock: VirtualClock, venue: BacktestVenue, state: { wired?: Wired; timerJumps: number }): Settle {
  const idle = (): boolean => (state.wired?.scheduler.inFlight ?? 0) === 0;
  /** Nothing that a reply or a timer would still move: lanes idle, no request unanswered, no call in a pool. */
  const still = (): boolean => idle() && venue.inFlight() === 0 && (state.wired?.link.queued() ?? 0) === 0;
  let lastTurn = performance.now();
  const until = async (done: () => boolean): Promise<void> => {
    const stall = new Stall();
    for (;;) {
      if (done() && idle()) {
        // One more turn lets what a reply or a timer queued after the work reach its lane.
        await nextTurn();
        if (done() && idle()) return;
      }
      await nextTurn();
      stall.observe(venue.received(), queuedOnLimits(state.wired, venue));
      const due = clock.nextDue();
      if (due === undefined || !(stall.waitingOnLimits() || stall.quietTooLong())) continue;
      clock.advanceTo(due);
      state.timerJumps++;
      stall.jumpedNow();
    }
  };
  return {
    breathe: () => {
      if (performance.now() - lastTurn < BREATHE_MS) return undefined;
      return nextTurn().then(() => {
        lastTurn = performance.now();
      });
    },
    drive: <T>(work: Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        let finished = false;
        let failed = false;
        let value: T | undefined;
        let error: unknown;
        // Plain callbacks rather than `finally` and an `async` wait: a fire pays no extra promises
        // or continuations for its settling (none of which queue engine work).
        work.then(
          (v) => {
            finished = true;
            value = v;
          },
          (err: unknown) => {
            finished = true;
            failed = true;
            error = err;
          },
        );
        const answer = (): void => (failed ? reject(error) : resolve(value as T));
        // The tick is queued from a continuation, so it runs once no continuation is left (see
        // above). Work that finishes on continuations alone (the in-process venue, no fault) is
        // done then: with nothing left that a reply or a timer could move, no turn is needed.
        queueMicrotask(() =>
          process.nextTick(() => {
            if (finished && still()) answer();
            else until(() => finished).then(answer, reject);
          }),
        );
      }),
  };
}
