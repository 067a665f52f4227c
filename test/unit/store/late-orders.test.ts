/**
 * The scratch store writes an order's row late (late-rows.ts): whole, at the batch's commit or
 * before a SQL read of the table, so a placement's insert and the moves of one batch are one
 * statement. On random journaling, moves, patches, legs, reads and failing transactions (nested
 * ones too), every read must answer what a memory store (which writes each row as it happens)
 * answers, and the committed rows, rowids included, must be the same.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import { openScratchStore, openStore, type Store } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { attempt, boom } from '../../support/attempt.js';

const STATES: readonly OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED'];
const STRATEGIES = ['grid', 'trend'];
const MARKETS = ['BTC_USDT', 'ETH_USDT', 'BTC_PERP'];

function rows(store: Store): unknown[] {
  const db = (store as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
  return db.prepare('SELECT rowid AS r, * FROM orders ORDER BY rowid').all();
}

const pick = <T>(rng: Prng, xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
/** An amount of a random scale, trailing zeros and all (as a strategy may compute it). */
const amount = (rng: Prng): ReturnType<typeof dec> => dec(`${Math.floor(rng.next() * 5000)}.${Math.floor(rng.next() * 1e6)}`).div(pick(rng, [1, 10, 1000, 3]));

/** One store's view of the test's script: the ids journaled and the venue ids handed out, as both stores see them alike. */
interface Script {
  ids: string[];
  nextOrderId: number;
}

function journal(store: Store, rng: Prng, clock: ManualClock, s: Script): string {
  clock.advance(1 + Math.floor(rng.next() * 3));
  const id = `o${s.ids.length}`;
  const strategyId = pick(rng, STRATEGIES);
  const legs = rng.next() < 0.2;
  store.orders.insertPending({
    clientOrderId: id, strategyId, kind: legs ? 'collateral' : 'limit', market: pick(rng, MARKETS), side: rng.next() < 0.5 ? 'buy' : 'sell',
    amount: amount(rng), price: amount(rng), postOnly: rng.next() < 0.5, ioc: false, rpi: false,
    stopLoss: legs ? amount(rng) : undefined, takeProfit: undefined, positionSide: legs ? 'LONG' : undefined,
  }, clock.now());
  if (legs) store.children.add(id, strategyId, 'stop_loss', dec('1.5'), clock.now());
  s.ids.push(id);
  return id;
}

function move(store: Store, rng: Prng, clock: ManualClock, s: Script): unknown {
  if (s.ids.length === 0) return journal(store, rng, clock, s);
  clock.advance(1);
  const id = pick(rng, s.ids);
  const r = rng.next();
  const patch =
    r < 0.3 ? { orderId: s.nextOrderId++ }
    : r < 0.5 ? { filledBase: amount(rng) }
    : r < 0.7 ? { reported: { base: amount(rng), quote: amount(rng) } }
    : r < 0.8 ? { unknownSinceMs: clock.now(), resolveLooks: Math.floor(rng.next() * 4) }
    : {};
  if (rng.next() < 0.7) store.orders.setState(id, 'OPEN', pick(rng, STATES), pick(rng, ['placed', 'filled', null]), clock.now(), patch);
  else store.orders.patch(id, patch, clock.now());
  return id;
}

/** Every read of the table a run (or an operator) makes. */
function read(store: Store, rng: Prng, s: Script): unknown {
  const id = s.ids.length === 0 ? 'none' : pick(rng, s.ids);
  const states = [pick(rng, STATES), pick(rng, STATES)];
  switch (Math.floor(rng.next() * 10)) {
    case 0: return store.orders.get(id) ?? null;
    case 1: return store.orders.getByOrderId(Math.floor(rng.next() * s.nextOrderId)) ?? null;
    case 2: return store.orders.listByState(states);
    case 3: return store.orders.listByStrategy(pick(rng, STRATEGIES), rng.next() < 0.5 ? undefined : states);
    case 4: return store.orders.marketsOfKindSince(pick(rng, STRATEGIES), pick(rng, ['limit', 'collateral'] as const), Math.floor(rng.next() * (s.ids.length + 1)));
    case 5: return [store.orders.all(), store.orders.listProvisional()];
    case 6: return [...store.orders.sentCounts()];
    case 7: return store.orders.countByState();
    case 8: return [store.audit.collateralMarkets(), store.console.fingerprint()];
    default: return store.orders.marketsOfKind(pick(rng, STRATEGIES), 'limit');
  }
}

function step(store: Store, rng: Prng, clock: ManualClock, s: Script): unknown {
  const r = rng.next();
  return r < 0.3 ? journal(store, rng, clock, s) : r < 0.7 ? move(store, rng, clock, s) : read(store, rng, s);
}

/** `store.tx(fn)`; when it fails, the ids journaled in it are gone with it. */
function tx(store: Store, s: Script, fn: () => unknown): unknown {
  const journaled = s.ids.length;
  try {
    return store.tx(fn);
  } catch (err) {
    s.ids.length = journaled;
    throw err;
  }
}

/** Steps in a transaction that fails at the end (nested: only an inner one fails). */
function failing(store: Store, rng: Prng, clock: ManualClock, s: Script, nested: boolean): unknown {
  return tx(store, s, () => {
    const before = [step(store, rng, clock, s), step(store, rng, clock, s), step(store, rng, clock, s)];
    if (!nested) return boom();
    const inner = attempt(() => tx(store, s, () => [step(store, rng, clock, s), step(store, rng, clock, s), boom()]));
    return [before, inner, step(store, rng, clock, s)];
  });
}

describe("the scratch store's late order rows", () => {
  it('answer every read as a memory store does and hold its rows at each commit, through rollbacks', () => {
    let failed = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const [c1, c2] = [new ManualClock(1_000), new ManualClock(1_000)];
      const full = openStore({ dataDir: '', clock: c1, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock: c2, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const [s1, s2] = [{ ids: [], nextOrderId: 1 }, { ids: [], nextOrderId: 1 }] as Script[];
      const rng = new Prng(seed);
      lean.batch.begin();
      for (let i = 0; i < 300; i++) {
        const [r, seedOf] = [rng.next(), Math.floor(rng.next() * 1e9)];
        const run = (store: Store, clock: ManualClock, s: Script): unknown =>
          r < 0.75 ? step(store, new Prng(seedOf), clock, s)
          : r < 0.85 ? store.tx(() => [step(store, new Prng(seedOf), clock, s), step(store, new Prng(seedOf + 1), clock, s)])
          : attempt(() => failing(store, new Prng(seedOf), clock, s, r < 0.93));
        const answer = run(full, c1, s1 as Script);
        expect(run(lean, c2, s2 as Script), `seed ${seed} step ${i}`).toEqual(answer);
        if (typeof answer === 'string' && answer.startsWith('threw')) failed++;
        if (rng.next() < 0.08) {
          lean.batch.commit();
          expect(rows(lean), `seed ${seed} step ${i}`).toEqual(rows(full));
          lean.batch.begin();
        }
      }
      lean.batch.commit();
      expect(rows(lean)).toEqual(rows(full));
    }
    expect(failed).toBeGreaterThan(20);
  });

  it('writes an order once, at the commit, for its insert and its moves in the batch', () => {
    const clock = new ManualClock(5_000);
    const lean = openScratchStore({ clock, logger: silentLogger() });
    closeAfterTest(lean);
    const s: Script = { ids: [], nextOrderId: 7 };
    lean.batch.begin();
    // The live index loaded (as a run's first tick loads it): the moves take the kept record.
    expect(lean.orders.listByState(['OPEN'])).toEqual([]);
    const id = journal(lean, new Prng(3), clock, s);
    lean.orders.setState(id, 'PENDING', 'OPEN', 'placed', clock.now(), { orderId: 7 });
    expect(rows(lean)).toEqual([]);
    expect(lean.orders.get(id)?.orderId).toBe(7);
    lean.batch.commit();
    expect(rows(lean)).toMatchObject([{ r: 1, client_order_id: id, state: 'OPEN', order_id: 7, reason: 'placed' }]);
  });
});
