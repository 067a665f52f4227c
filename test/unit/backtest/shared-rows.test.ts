/**
 * A run's readers of one price series share one reading: each still sees every row in order,
 * whatever their pace; the file is read once while they keep pace, and again only for a reader
 * that joins late or falls too far behind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { SharedRows } from '../../../src/backtest/shared-rows.js';

function source(n: number): { open: () => Iterator<PriceRow>; opened: () => number } {
  let opened = 0;
  const open = function* (): Generator<PriceRow> {
    for (let i = 0; i < n; i++) yield { timeMs: i * 60_000, price: new Decimal(i + 1), volume: null };
  };
  return { open: () => (opened++, open()), opened: () => opened };
}

describe('SharedRows', () => {
  it('gives every reader every row in order, reading the file once while they keep pace', () => {
    const src = source(50_000);
    const shared = new SharedRows(src.open);
    const a = shared.reader();
    const b = shared.reader();
    // Both read to a start, then the run seals and both step along together.
    for (let i = 0; i < 100; i++) a.next();
    for (let i = 0; i < 100; i++) b.next();
    shared.seal();
    const late = [...shared.reader()].length;
    const restA: number[] = [];
    const restB: number[] = [];
    for (let x = a.next(), y = b.next(); x.done !== true || y.done !== true; x = a.next(), y = b.next()) {
      if (x.done !== true) restA.push(x.value.timeMs / 60_000);
      if (y.done !== true) restB.push(y.value.timeMs / 60_000);
    }
    expect(restA).toEqual(Array.from({ length: 49_900 }, (_, i) => i + 100));
    expect(restB).toEqual(restA);
    // The late reader read the file again, whole: the readers that kept pace shared one reading.
    expect(late).toBe(50_000);
    expect(src.opened()).toBe(2);
  });

  it('parses ahead a bounded batch only: rows pulled from the file stay within 64 of the fastest reader', () => {
    let pulled = 0;
    const shared = new SharedRows(function* (): Generator<PriceRow> {
      for (let i = 0; i < 10_000; i++) {
        pulled++;
        yield { timeMs: i * 60_000, price: new Decimal(i + 1), volume: null };
      }
    });
    const a = shared.reader();
    shared.seal();
    for (let i = 1; i <= 1_000; i++) {
      expect(a.next().value?.timeMs).toBe((i - 1) * 60_000);
      expect(pulled).toBeGreaterThanOrEqual(i);
      expect(pulled).toBeLessThanOrEqual(i + 64);
    }
  });

  it('gives each reader the whole series whatever the interleaving, joins and early closes', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('step' as const), reader: fc.nat(3), n: fc.integer({ min: 1, max: 15_000 }) }),
      fc.record({ kind: fc.constant('join' as const) }),
      fc.record({ kind: fc.constant('seal' as const) }),
      fc.record({ kind: fc.constant('close' as const), reader: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const src = source(30_000);
        const shared = new SharedRows(src.open);
        const readers: Array<{ it: Generator<PriceRow>; seen: number[]; closed: boolean }> = [];
        const join = (): void => void readers.push({ it: shared.reader(), seen: [], closed: false });
        join();
        for (const o of ops) {
          if (o.kind === 'join') join();
          else if (o.kind === 'seal') shared.seal();
          else {
            const r = readers[o.reader % readers.length];
            if (r === undefined || r.closed) continue;
            if (o.kind === 'close') {
              r.it.return(undefined);
              r.closed = true;
              continue;
            }
            for (let i = 0; i < o.n; i++) {
              const x = r.it.next();
              if (x.done === true) break;
              r.seen.push(x.value.timeMs / 60_000);
            }
          }
        }
        for (const r of readers) {
          if (!r.closed) for (let x = r.it.next(); x.done !== true; x = r.it.next()) r.seen.push(x.value.timeMs / 60_000);
          // Each reader saw the rows from the first, in order, without a gap (up to its close).
          expect(r.seen).toEqual(Array.from({ length: r.seen.length }, (_, i) => i));
          if (!r.closed) expect(r.seen.length).toBe(30_000);
        }
      }),
      { numRuns: 60 },
    );
  });
});
