/**
 * A strategy's state reads: a scalar's parsed value is kept by its text, objects and arrays are
 * parsed at every read. After every write of random sequences each key reads as a fresh reader
 * (every read from SQL) reads it, and a caller changing what it got changes no later read.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_SCALARS, StrategyStates } from '../../../src/store/strategy-state-repo.js';

const KEYS = ['a', 'b', 'c'];

type Op =
  | { kind: 'set'; key: string; value: unknown }
  | { kind: 'setJson'; key: string; value: unknown; space: boolean }
  | { kind: 'delete'; key: string }
  | { kind: 'read'; key: string }
  | { kind: 'drop' };

const key = fc.constantFrom(...KEYS);
const scalar = fc.oneof(fc.constantFrom(0, 1, -1, 2.5, true, false, null, '', 'x', '60000.12'), fc.integer({ min: 0, max: 5 }));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(fc.constantFrom('p', 'q'), scalar), fc.jsonValue({ maxDepth: 2 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value }),
  fc.record({ kind: fc.constant('setJson' as const), key, value, space: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('read' as const), key }),
  fc.record({ kind: fc.constant('drop' as const) }),
);

function tables(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE strategy_state (strategy_id TEXT NOT NULL, key TEXT NOT NULL, value_json TEXT NOT NULL, updated_ms INTEGER NOT NULL, PRIMARY KEY (strategy_id, key))');
  return db;
}

/** Changes what a read gave, as a hook may (a scalar cannot be changed). */
function scribble(v: unknown): void {
  if (Array.isArray(v)) v.push('scribbled');
  else if (v !== null && typeof v === 'object') (v as Record<string, unknown>).scribbled = true;
}

describe("a strategy's state reads", () => {
  it('read as a fresh reader reads after every write, and what a caller changes is not read again', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const db = tables();
        const states = new StrategyStates(db, () => 1);
        const fresh = new StrategyStates(db, () => 1, false);
        const mine = states.of('s');
        for (const o of ops) {
          if (o.kind === 'set') mine.set(o.key, o.value);
          // A text from elsewhere (the table as found): with a leading space an object is no longer told by its first character.
          else if (o.kind === 'setJson') mine.setJson(o.key, `${o.space ? ' ' : ''}${JSON.stringify(o.value)}`);
          else if (o.kind === 'delete') mine.delete(o.key);
          else if (o.kind === 'read') scribble(mine.get(o.key));
          else states.dropAll();
          for (const k of KEYS) {
            const got = mine.get(k);
            expect(got).toEqual(fresh.of('s').get(k));
            scribble(got);
            expect(mine.get(k)).toEqual(fresh.of('s').get(k));
          }
        }
        db.close();
      }),
      { numRuns: 200 },
    );
  });

  it('keeps scalars up to its bound and reads them right past it', () => {
    const db = tables();
    const mine = new StrategyStates(db, () => 1).of('s');
    for (let i = 0; i < MAX_KEPT_SCALARS * 2 + 3; i++) {
      mine.set('n', i);
      expect(mine.get('n')).toBe(i);
      mine.set('t', `v${i}`);
      expect(mine.get('t')).toBe(`v${i}`);
    }
    db.close();
  });
});
