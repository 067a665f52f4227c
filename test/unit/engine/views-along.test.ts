/**
 * `viewsAlong` takes a view from the last list only where it is the view the per-record path
 * (KeptViews) gives: on random edits of a list (records added, removed, replaced, moved; some
 * records not reusable, as an order record not frozen), each view equals the one the per-record
 * path answers for its record, the very same object when that path keeps it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeptViews, viewsAlong, type ViewList } from '../../../src/engine/versioned-memo.js';

interface Rec {
  id: number;
  reusable: boolean;
}

const edit = fc.oneof(
  fc.record({ kind: fc.constant('front' as const), reusable: fc.boolean() }),
  fc.record({ kind: fc.constant('back' as const), reusable: fc.boolean() }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), reusable: fc.boolean() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
);

describe('views along the last list', () => {
  it('property: every view is the per-record path answer for its record', () => {
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 30 }), (rounds) => {
        let next = 0;
        const rec = (reusable: boolean): Rec => ({ id: next++, reusable });
        const kept = new KeptViews<Rec, { of: number }>();
        const of = (r: Rec) => kept.of(r, (x) => ({ of: x.id }), r.reusable);
        let records: Rec[] = [rec(true), rec(true), rec(false)];
        let last: ViewList<Rec, { of: number }> | undefined;
        for (const round of rounds) {
          records = [...records];
          for (const e of round) {
            const at = 'at' in e && records.length > 0 ? e.at % records.length : 0;
            if (e.kind === 'front') records.unshift(rec(e.reusable));
            else if (e.kind === 'back') records.push(rec(e.reusable));
            else if (e.kind === 'drop') records.splice(at, 1);
            else if (e.kind === 'replace') records.splice(at, 1, rec(e.reusable));
            else if (records.length > 1) {
              const [a] = records.splice(at, 1);
              if (a !== undefined) records.push(a);
            }
          }
          const got = viewsAlong(last, records, of, (r) => r.reusable);
          expect(got.records).toBe(records);
          got.views.forEach((v, i) => {
            const r = records[i] as Rec;
            expect(v.of).toBe(r.id);
            // A kept view is the per-record path's own object; one not kept is made anew each time.
            if (r.reusable) expect(v).toBe(kept.of(r, () => ({ of: -1 }), true));
            else expect(last?.views.includes(v) ?? false).toBe(false);
          });
          last = got;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a fill at the front and the oldest gone: the other views are the last list’s, with no lookup', () => {
    const kept = new KeptViews<Rec, string>();
    const looked: number[] = [];
    const of = (r: Rec) => (looked.push(r.id), kept.of(r, (x) => `v${x.id}`));
    const rs = [0, 1, 2, 3].map((id) => ({ id, reusable: true }));
    const first = viewsAlong(undefined, rs, of, () => true);
    looked.length = 0;
    const fresh = { id: 9, reusable: true };
    const second = viewsAlong(first, [fresh, ...rs.slice(0, 3)], of, () => true);
    expect(second.views).toEqual(['v9', 'v0', 'v1', 'v2']);
    expect(looked).toEqual([9]);
  });
});
