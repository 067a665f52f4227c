/**
 * Deterministic pseudo-random numbers. Every random choice of the simulator (price steps,
 * volumes, faults, transaction ids) draws from a named stream derived from the seed, so the same
 * seed and the same sequence of requests give the same market, fills and faults.
 */

/** FNV-1a 32-bit hash of a string; used to derive independent streams from one seed. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for a simulation (not for cryptography). */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream for `name`, independent of other names, fixed by `seed`. */
  static derive(seed: number, name: string): Prng {
    return new Prng((fnv1a(`${seed}:${name}`) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0);
  }

  /** The stream's position, to continue it after a restart (src/simulator/persist/). */
  snapshot(): number {
    return this.state;
  }

  /** Continues the stream from a `snapshot()`. */
  restore(state: number): void {
    this.state = state >>> 0;
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1), exact multiple of 2^-32 (identical on every platform). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /**
   * Approximately standard normal (Irwin-Hall, 12 uniforms): plain additions only, so the result
   * is bit-identical everywhere, unlike Box-Muller's Math.log.
   */
  normal(): number {
    let s = 0;
    for (let i = 0; i < 12; i++) s += this.next();
    return s - 6;
  }

  /** Lowercase hex string of `bytes` random bytes. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += (this.nextUint32() & 0xff).toString(16).padStart(2, '0');
    return out;
  }

  /** A UUID-shaped (version 4 layout) identifier. */
  uuid(): string {
    const h = this.hex(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
