import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { StoreError } from '../../../src/core/errors.js';
import type { NoncePersistence } from '../../../src/model/nonce.js';
import { NonceGenerator } from '../../../src/exchange/nonce.js';

class MemoryPersistence implements NoncePersistence {
  saves: number[] = [];
  constructor(public mark: number | undefined = undefined) {}
  load(): number | undefined {
    return this.mark;
  }
  save(v: number): void {
    this.saves.push(v);
    this.mark = v;
  }
}

describe('NonceGenerator', () => {
  it('is strictly increasing within one millisecond and across a clock step back', () => {
    const clock = new ManualClock(1_000_000);
    const g = new NonceGenerator({ clock });
    const a = g.next();
    const b = g.next();
    expect(a).toBe(1_000_000);
    expect(b).toBe(1_000_001);
    clock.advance(10);
    expect(g.next()).toBe(1_000_010);
    const back = new ManualClock(5);
    const g2 = new NonceGenerator({ clock: back });
    g2.next();
    expect(g2.next()).toBe(6);
  });

  it('persists a mark ahead in blocks, not on every request', () => {
    const clock = new ManualClock(1_000_000);
    const p = new MemoryPersistence();
    const g = new NonceGenerator({ clock, persistence: p, reserveAheadMs: 1000 });
    for (let i = 0; i < 100; i++) g.next();
    expect(p.saves).toEqual([1_001_000]);
    clock.advance(1000);
    g.next();
    expect(p.saves).toEqual([1_001_000, 1_002_000]);
  });

  it('after a crash restarts above every nonce ever used, even with the clock behind', () => {
    const clock = new ManualClock(1_000_000);
    const p = new MemoryPersistence();
    const g = new NonceGenerator({ clock, persistence: p, reserveAheadMs: 1000 });
    let last = 0;
    for (let i = 0; i < 500; i++) last = g.next();
    // "crash": a new generator restores from what was persisted, with time gone backwards.
    const g2 = new NonceGenerator({ clock: new ManualClock(999_000), persistence: p, reserveAheadMs: 1000 });
    expect(g2.next()).toBeGreaterThan(last);
  });

  it('a failing save is a StoreError and hands out no nonce', () => {
    const clock = new ManualClock(1_000);
    const g = new NonceGenerator({
      clock,
      persistence: { load: () => undefined, save: () => { throw new Error('disk full'); } },
    });
    expect(() => g.next()).toThrow(StoreError);
    expect(g.lastNonce).toBe(0);
  });

  it('refuses a corrupt persisted mark', () => {
    expect(() => new NonceGenerator({ clock: new ManualClock(), persistence: new MemoryPersistence(1.5) })).toThrow(RangeError);
  });
});
