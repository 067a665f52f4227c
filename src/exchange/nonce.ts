/**
 * One nonce generator per client (docs/failure-modes.md #6): strictly increasing `max(now, last + 1)` in
 * milliseconds, so two calls in the same millisecond still differ and a clock step backwards
 * never reuses a value.
 *
 * Crash safety without a disk write per request: the generator persists a high-water mark
 * `reserveAheadMs` ahead of the nonce it hands out and only writes again when it reaches that
 * mark. Every nonce ever used is below the persisted mark, so a restart that begins above the
 * restored mark can never repeat one, whatever happened between the last save and the crash.
 */
import type { Clock } from '../core/clock.js';
import { BotError, StoreError } from '../core/errors.js';
import type { NoncePersistence } from '../model/nonce.js';

export type NonceMode = 'strict' | 'window';

/** Where a request's nonce comes from: this process (NonceGenerator) or the shared store. */
export interface NonceSource {
  next(): number | Promise<number>;
  /** The last nonce handed out (0 before the first). */
  readonly lastNonce: number;
}

/**
 * Window-mode nonces taken from the shared store (redis-store.ts), so that processes signing
 * with one key never send the same one.
 */
export class SharedNonce implements NonceSource {
  private last = 0;

  constructor(
    private readonly take: (nowMs: number) => Promise<number>,
    private readonly clock: Clock,
  ) {}

  get lastNonce(): number {
    return this.last;
  }

  async next(): Promise<number> {
    const n = await this.take(this.clock.now());
    this.last = Math.max(this.last, n);
    return n;
  }
}

export interface NonceGeneratorOptions {
  clock: Clock;
  persistence?: NoncePersistence | undefined;
  /** How far ahead of the current nonce the persisted mark is placed, ms. Default 10 000. */
  reserveAheadMs?: number | undefined;
}

export class NonceGenerator implements NonceSource {
  private last: number;
  private reservedUntil: number;
  private readonly reserveAheadMs: number;

  constructor(private readonly options: NonceGeneratorOptions) {
    this.reserveAheadMs = options.reserveAheadMs ?? 10_000;
    if (!(this.reserveAheadMs >= 1)) throw new RangeError('reserveAheadMs must be >= 1');
    const restored = options.persistence?.load();
    if (restored !== undefined && !(Number.isSafeInteger(restored) && restored >= 0)) {
      throw new RangeError('persisted nonce high-water mark is not a safe non-negative integer');
    }
    // The restored mark may have been used (it is an upper bound), so start strictly above it.
    this.last = restored ?? 0;
    this.reservedUntil = restored ?? 0;
  }

  /** The last nonce handed out (0 before the first). */
  get lastNonce(): number {
    return this.last;
  }

  /** The next nonce; persists a new mark first when the reserved range is used up. */
  next(): number {
    const n = Math.max(this.options.clock.now(), this.last + 1);
    if (this.options.persistence !== undefined && n >= this.reservedUntil) {
      const mark = n + this.reserveAheadMs;
      // Save before handing out: if the save throws, no request leaves with an unrecorded nonce.
      try {
        this.options.persistence.save(mark);
      } catch (err) {
        if (err instanceof BotError) throw err;
        throw new StoreError('io', 'could not persist the nonce high-water mark', {}, { cause: err });
      }
      this.reservedUntil = mark;
    }
    this.last = n;
    return n;
  }
}
