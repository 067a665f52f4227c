/**
 * One venue pool = one Bottleneck limiter (docs/architecture.md §8.3): the token bucket of bucket.ts,
 * priorities 0-9 (cancels first), a bounded queue, a deadline on every queued call, and a pause
 * after a venue 429.
 *
 * Bottleneck keeps its own timers (job start, Redis heartbeats): they run on real time, not on
 * the injected Clock. What is ours (the local bucket's refill, deadlines, pause bookkeeping, the
 * `used` figure) reads the Clock.
 *
 * Bounded queue: `highWater` with OVERFLOW_PRIORITY. When the queue is full a new job displaces
 * the oldest queued job of a strictly lower priority (a read before any order), or is refused
 * itself when there is none; a cancel is only ever refused when the queue holds nothing but
 * cancels. Every refusal reaches its caller as a TransientError (`rate_limited`, reason
 * `queue_full`), never silently.
 *
 * Refill: a shared bucket uses Bottleneck's `reservoirIncrease*` (its Redis scripts count on a
 * grid, with `heartbeatInterval` = I waking the waiting jobs); a local one is refilled on the
 * same grid by grid-refill.ts (Bottleneck's local refill loses the event loop's lag).
 *
 * Fast path (fast-path.ts): while a local bucket covers a call and nobody waits in the queue, the
 * call takes its tokens from Bottleneck's reservoir synchronously and runs at once, without
 * Bottleneck's timer turns; otherwise Bottleneck queues and grants it as described above.
 *
 * Pause: a venue 429 drives the bucket below zero, by as many increases as the pause lasts, so
 * the refill itself ends it (in Redis mode for every process on the key, as the venue's limit is
 * per IP). `updateSettings` is never used on a local limiter: it stops Bottleneck's heartbeat
 * for good (SGrondin/bottleneck issue 185).
 */
import Bottleneck from 'bottleneck';
import type { Clock } from '../../core/clock.js';
import { BotError, type TransientError } from '../../core/errors.js';
import type { PauseSettings, PoolName, PoolSpec, PoolStatus } from './pools.js';
import type { BucketPlan } from './bucket.js';
import type { RedisStore } from './redis-store.js';
import { FastPath } from './fast-path.js';
import { GridRefill } from './grid-refill.js';
import { SendLog } from './send-log.js';
import { JobTicket, notSent } from './ticket.js';

/** Bottleneck's message for a job the bounded queue dropped. */
const DROPPED_RE = /dropped by Bottleneck/;

export interface PoolLimiterOptions {
  name: PoolName;
  spec: PoolSpec;
  plan: BucketPlan;
  clock: Clock;
  /** Jobs waiting in this process before new ones are refused (Bottleneck `highWater`). */
  maxQueued: number;
  /** How long a call may wait before it is sent, ms. */
  deadlineMs: number;
  pause: PauseSettings;
  /** Jitter source in [0, 1). */
  random: () => number;
  /**
   * Strict nonces: granted jobs wait for the send lane, so at most this much weight may be
   * granted and not yet sent (Bottleneck `maxConcurrent`, which counts weight). Unset: no limit.
   */
  maxGrantedWeight?: number | undefined;
  /** Clustered mode: the bucket lives in Redis. */
  shared?: RedisStore | undefined;
  /** Errors Bottleneck reports outside any job (datastore failures). */
  onError?: ((err: unknown) => void) | undefined;
}

export class PoolLimiter {
  readonly name: PoolName;
  private limiter: Bottleneck;
  /** Local buckets only. */
  private refill: GridRefill | undefined;
  /** Local buckets only. */
  private fast: FastPath | undefined;
  /** Fast-path calls still running (stop() waits for them as Bottleneck waits for its own). */
  private readonly running = new Set<Promise<unknown>>();
  private broken = false;
  private readonly sends: SendLog;
  private refused = 0;
  private pausedUntil = 0;
  private consecutive429 = 0;
  /** The latest pause's change of the bucket (pauses apply one after another). */
  private pausing: Promise<void> = Promise.resolve();
  private lastReservoir: number | undefined;
  private closed = false;

  constructor(private readonly options: PoolLimiterOptions) {
    this.name = options.name;
    this.sends = new SendLog(options.clock, options.spec.windowMs);
    this.limiter = this.create();
  }

  /** The budget this client allows itself per window. */
  get budget(): number {
    return this.options.plan.budget;
  }

  /**
   * Runs `job` when the bucket grants `weight` tokens, by priority (0 first, FIFO within one).
   * The job calls `ticket.claim()` right before it signs and sends.
   */
  async schedule<T>(priority: number, weight: number, job: (ticket: JobTicket) => Promise<T>): Promise<T> {
    this.checkJob(priority, weight);
    const refusal = this.closed ? this.closedError() : this.options.shared?.refuseNew(this.name);
    if (refusal !== undefined) throw refusal;
    // Right after a 429 the bucket is being lowered (async): wait for it, or this call would
    // still find the tokens the pause is taking away.
    if (this.pausedUntil > this.options.clock.now()) await this.pausing;
    const ticket = this.ticket(weight);
    if (this.fast?.admits(weight) === true) {
      const done = await this.track(this.fast.run(weight, job, ticket));
      if (done !== undefined) return done.value;
    }
    return this.queue(priority, weight, job, ticket);
  }

  /** Bottleneck grants the tokens and starts the job, by priority, within the deadline. */
  private async queue<T>(priority: number, weight: number, job: (ticket: JobTicket) => Promise<T>, ticket: JobTicket): Promise<T> {
    ticket.takeAtClaim = undefined;
    let started = false;
    const run = this.limiter.schedule({ priority, weight }, () => {
      started = true;
      return job(ticket);
    });
    run.catch(() => undefined); // the caller may have left at its deadline
    try {
      return await Promise.race([run, ticket.expired()]);
    } catch (err) {
      // Once the job ran, its own errors pass through; before that, the failure is the queue's.
      throw started || err instanceof BotError ? err : this.queueError(err);
    } finally {
      ticket.dispose();
    }
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.running.add(run);
    const done = (): void => {
      this.running.delete(run);
    };
    run.then(done, done);
    return run;
  }

  /** A venue rate-limit 429: pause with exponential backoff; Retry-After up to its cap. Returns the pause, ms. */
  pauseFor429(retryAfterMs?: number): number {
    const now = this.options.clock.now();
    // 429s for requests sent before this pause began are the same episode: no extra backoff.
    if (now >= this.pausedUntil) this.consecutive429 += 1;
    const ms = this.pauseMs(retryAfterMs);
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.holdTokens(ms);
    return ms;
  }

  /** A request of this pool succeeded: the backoff starts over. */
  noteSuccess(): void {
    this.consecutive429 = 0;
  }

  /** Calls waiting in this pool's queue (no bucket refresh: cheap enough to poll every event-loop turn). */
  queued(): number {
    return this.limiter.queued();
  }

  status(): PoolStatus {
    this.refreshReservoir();
    const paused = this.pausedUntil > this.options.clock.now() || (this.lastReservoir ?? 0) < 0;
    return { limit: this.budget, used: this.sends.used(), queued: this.limiter.queued(), paused, refused: this.refused };
  }

  /**
   * The shared store is reachable again. A limiter whose start-up failed is built anew; the
   * others are touched so that Bottleneck recreates a bucket Redis lost (it starts one increase
   * below zero: see create()) and its heartbeats wake the queued jobs.
   */
  storeUp(): void {
    if (this.closed) return;
    if (this.broken) {
      void this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
      this.limiter = this.create();
      return;
    }
    this.refreshReservoir();
  }

  /** Refuses queued and future jobs; resolves once running jobs are done. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.refill?.stop();
    await this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
    await Promise.allSettled([...this.running]);
  }

  private create(): Bottleneck {
    const { plan, shared, maxGrantedWeight, maxQueued } = this.options;
    const queue = { highWater: maxQueued, strategy: Bottleneck.strategy.OVERFLOW_PRIORITY };
    const limiter = new Bottleneck({
      ...queue,
      maxConcurrent: maxGrantedWeight ?? null,
      rejectOnDrop: true,
      ...(shared === undefined ? { reservoir: plan.capacity } : this.sharedSettings(shared)),
    } as Bottleneck.ConstructorOptions);
    this.broken = false;
    limiter.on('error', (err: unknown) => this.options.onError?.(err));
    limiter.on('dropped', () => {
      if (!this.closed) this.refused += 1;
    });
    if (shared === undefined) {
      // A local bucket starts full: a process restart is within the safety margin, as before.
      this.refill = new GridRefill(limiter, plan, this.options.clock, (err) => this.options.onError?.(err));
      this.fast = FastPath.of(limiter);
      return limiter;
    }
    limiter.ready().then(
      // Processes sharing the bucket follow the current table (the level is left alone).
      () => limiter.updateSettings({ ...queue, ...this.increase() }),
      (err: unknown) => {
        this.broken = true;
        this.options.onError?.(err);
      },
    ).catch((err: unknown) => this.options.onError?.(err));
    return limiter;
  }

  /** Bottleneck's own grid refill, in Redis. */
  private increase(): Bottleneck.ConstructorOptions {
    const { plan } = this.options;
    return { reservoirIncreaseInterval: plan.increaseIntervalMs, reservoirIncreaseAmount: plan.increaseAmount, reservoirIncreaseMaximum: plan.capacity };
  }

  private sharedSettings(shared: RedisStore): Bottleneck.ConstructorOptions {
    const { plan } = this.options;
    return {
      ...this.increase(),
      // Created (first process, Redis restarted empty, keys expired) one increase below zero: a
      // window that still holds requests sent before the reset never sees more than the budget.
      reservoir: -plan.increaseAmount,
      heartbeatInterval: plan.heartbeatMs,
      ...shared.limiterOptions(this.name),
    } as Bottleneck.ConstructorOptions;
  }

  private ticket(weight: number): JobTicket {
    const shared = this.options.shared;
    return new JobTicket({
      pool: this.name,
      clock: this.options.clock,
      deadlineMs: this.options.deadlineMs,
      refuse: () => (this.closed ? this.closedError() : shared?.refuseSend(this.name)),
      onSend: () => this.sends.record(weight),
    });
  }

  private checkJob(priority: number, weight: number): void {
    if (!(Number.isInteger(priority) && priority >= 0 && priority <= 9)) throw new RangeError('priority must be 0..9');
    if (!(Number.isInteger(weight) && weight >= 1 && weight <= this.options.plan.capacity)) {
      throw new RangeError(`weight ${weight} outside 1..${this.options.plan.capacity} for pool ${this.name}`);
    }
  }

  /**
   * A job that failed before it ran was never sent: refused by the bounded queue, or dropped by
   * the closed pool, the shared store or a limiter rebuilt after a failed start. Always a
   * TransientError, so that callers file it as "not sent".
   */
  private queueError(err: unknown): TransientError {
    if (this.closed) return this.closedError();
    if (err instanceof Bottleneck.BottleneckError && DROPPED_RE.test(err.message)) {
      return notSent(this.name, 'queue_full', `local queue full (${this.options.maxQueued} waiting; only a more urgent call may displace a queued one)`);
    }
    if (this.options.shared !== undefined) return notSent(this.name, 'store_down', 'the shared rate-limit store failed');
    return this.closedError();
  }

  private closedError(): TransientError {
    return notSent(this.name, 'closed', `rate-limit pool ${this.name} is closed`);
  }

  private pauseMs(retryAfterMs: number | undefined): number {
    const { baseMs, maxMs, maxRetryAfterMs } = this.options.pause;
    const exp = Math.min(maxMs, baseMs * 2 ** (this.consecutive429 - 1));
    const jittered = Math.round(exp * (0.5 + 0.5 * this.options.random()));
    // A Retry-After of days must not freeze the bot: it is honoured up to its cap.
    return Math.max(jittered, Math.min(retryAfterMs ?? 0, maxRetryAfterMs));
  }

  /**
   * Sets the bucket to −A × ceil(ms / I) (or leaves a lower level): the next grid point may come
   * at once, so the first token is back ceil(ms / I) further grid points later, ≥ ms from now.
   */
  private holdTokens(ms: number): void {
    const { increaseAmount, increaseIntervalMs } = this.options.plan;
    const target = -increaseAmount * Math.ceil(ms / increaseIntervalMs);
    const delta = (level: number): number => Math.min(0, target - level);
    this.lastReservoir = Math.min(this.lastReservoir ?? 0, target);
    if (this.refill !== undefined) {
      this.pausing = this.refill.adjust(delta);
      return;
    }
    this.pausing = this.pausing
      .then(async () => {
        const level = (await this.limiter.currentReservoir()) ?? 0;
        if (delta(level) < 0) await this.limiter.incrementReservoir(delta(level));
      })
      .catch((err: unknown) => this.options.onError?.(err));
  }

  /** Caches the bucket level for status() (async in Redis mode; errors only leave it stale). */
  private refreshReservoir(): void {
    this.limiter.currentReservoir().then(
      (r) => {
        if (r !== null) this.lastReservoir = r;
      },
      () => undefined,
    );
  }
}
