/**
 * The live legs inside a transaction: the list kept before it is handed out until the
 * transaction writes a leg, then the table is read; a list read after such a write is never kept
 * past a rollback. Checked against the whole table after every step of random sequences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { ChildState } from '../../../src/model/conditional.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const LIVE: readonly ChildState[] = ['armed', 'active', 'missing'];
const STATES: readonly ChildState[] = ['armed', 'active', 'missing', 'cancelled', 'filled'];

const step = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), parent: fc.nat({ max: 5 }), stop: fc.boolean() }),
  fc.record({ kind: fc.constant('state' as const), child: fc.nat(), state: fc.constantFrom(...STATES) }),
  fc.record({ kind: fc.constant('read' as const) }),
);
const block = fc.record({ inTx: fc.boolean(), rollback: fc.boolean(), steps: fc.array(step, { maxLength: 6 }) });
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** What the table holds: every leg not settled, by id (`all()` always reads SQL). */
const fromTable = (store: Store) => store.children.all().filter((c) => LIVE.includes(c.state));

function run(store: Store, s: Step, now: number): void {
  if (s.kind === 'add') store.children.add(`p${s.parent}`, 's', s.stop ? 'stop_loss' : 'take_profit', new Decimal(s.stop ? '9' : '11'), now);
  else if (s.kind === 'state') {
    const all = store.children.all();
    const c = all[s.child % Math.max(1, all.length)];
    if (c !== undefined) store.children.update(c.id, { state: s.state }, now);
  }
  expect(store.children.live()).toEqual(fromTable(store));
}

describe('children.live inside a transaction', () => {
  it('is the table after every step, committed or rolled back', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), (blocks) => {
        const store = memoryStore();
        for (let i = 0; i < 6; i++) {
          store.orders.insertPending(
            { clientOrderId: `p${i}`, strategyId: 's', kind: 'collateral', market: 'BTC_USDT', side: 'buy', amount: new Decimal('1'), price: new Decimal('10'), postOnly: false, ioc: false, rpi: false },
            1_000,
          );
        }
        let now = 1_000;
        for (const b of blocks) {
          expect(store.children.live()).toEqual(fromTable(store));
          const body = () => {
            for (const s of b.steps) run(store, s, ++now);
            if (b.rollback) throw new Error('rolled back on purpose');
          };
          if (!b.inTx) {
            for (const s of b.steps) run(store, s, ++now);
            continue;
          }
          if (b.rollback) expect(() => store.tx(body)).toThrow();
          else store.tx(body);
          expect(store.children.live()).toEqual(fromTable(store));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hands out the list kept before the transaction until it writes a leg', () => {
    const store = memoryStore();
    store.orders.insertPending(
      { clientOrderId: 'p', strategyId: 's', kind: 'collateral', market: 'BTC_USDT', side: 'buy', amount: new Decimal('1'), price: new Decimal('10'), postOnly: false, ioc: false, rpi: false },
      1_000,
    );
    store.children.add('p', 's', 'stop_loss', new Decimal('9'), 1_000);
    const [kept] = store.children.live();
    store.tx(() => {
      expect(store.children.live()[0]).toBe(kept);
      store.children.update(kept?.id ?? 0, { state: 'active', orderId: 5 }, 1_001);
      const [read] = store.children.live();
      expect(read).not.toBe(kept);
      expect(read?.state).toBe('active');
    });
  });
});
