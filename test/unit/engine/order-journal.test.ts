import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { OrderJournal } from '../../../src/engine/order-journal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore, openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string) => new Decimal(s);
function setup() {
  const dir = tempDir();
  const clock = new ManualClock(1_700_000_000_000);
  const store = openStore({ dataDir: dir, clock, logger: silentLogger() });
  closeAfterTest(store);
  const journal = new OrderJournal(store, clock);
  const [cid] = journal.open('grid', [{ market: 'BTC_PERP', side: 'buy', amount: d('1'), price: d('100'), stopLoss: d('90') }], 'collateral') as [string];
  return { store, clock, journal, cid };
}

describe('OrderJournal', () => {
  it('opens orders PENDING with their protective children, under fresh ids of the strategy prefix', () => {
    const { store, journal, cid } = setup();
    expect(store.orders.get(cid)).toMatchObject({ state: 'PENDING', strategyId: 'grid', kind: 'collateral' });
    expect(store.children.byParent(cid).map((c) => [c.kind, c.price.toFixed()])).toEqual([['stop_loss', '90']]);
    const [next] = journal.open('grid', [{ market: 'BTC_USDT', side: 'sell', amount: d('1'), price: d('1') }], 'limit');
    expect(next).not.toBe(cid);
    expect(next?.startsWith('grid')).toBe(true);
  });

  it('moves forward only: a late reply does not undo what fills proved; the patch is still written', () => {
    const { store, journal, cid } = setup();
    expect(journal.move(cid, 'FILLED', 'fills', { filledBase: d('1') })).toBe('FILLED');
    expect(journal.move(cid, 'OPEN', 'placed', { orderId: 77 })).toBe('FILLED');
    expect(store.orders.get(cid)).toMatchObject({ state: 'FILLED', orderId: 77 });
    expect(store.orders.history(cid).map((h) => h.to)).toEqual(['PENDING', 'FILLED']);
  });

  it('never writes an illegal transition: an UNKNOWN order is not REJECTED, a terminal one does not turn UNKNOWN', () => {
    const { store, journal, cid } = setup();
    expect(journal.markUnknown(cid, 'timeout')).toBe(true);
    expect(store.orders.get(cid)).toMatchObject({ state: 'UNKNOWN', resolveLooks: 0, unknownSinceMs: 1_700_000_000_000 });
    expect(journal.move(cid, 'REJECTED', 'refused')).toBe('UNKNOWN');
    expect(journal.move(cid, 'CANCELLED', 'probe')).toBe('CANCELLED');
    expect(journal.markUnknown(cid, 'timeout')).toBe(false);
    expect(store.orders.history(cid).map((h) => h.to)).toEqual(['PENDING', 'UNKNOWN', 'CANCELLED']);
  });

  it('a refused cancel restores the resting state, or PARTIALLY_FILLED when fills came meanwhile; only from PENDING_CANCEL', () => {
    const { store, journal, cid } = setup();
    journal.move(cid, 'OPEN', 'placed');
    journal.move(cid, 'PENDING_CANCEL', 'cancel requested');
    journal.revertCancel(cid, 'OPEN', 'cancel refused');
    expect(store.orders.get(cid)?.state).toBe('OPEN');
    journal.move(cid, 'PENDING_CANCEL', 'cancel requested');
    journal.note(cid, { filledBase: d('0.4') });
    journal.revertCancel(cid, 'OPEN', 'cancel refused');
    expect(store.orders.get(cid)?.state).toBe('PARTIALLY_FILLED');
    journal.revertCancel(cid, 'OPEN', 'not pending a cancel');
    expect(store.orders.get(cid)?.state).toBe('PARTIALLY_FILLED');
  });

  it("inside a caller's transaction its moves join it: committed with it, or rolled back with it (history and finals too)", () => {
    const { store, journal, cid } = setup();
    const [other] = journal.open('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('1') }], 'limit') as [string];
    expect(() =>
      store.tx(() => {
        journal.move(cid, 'OPEN', 'placed', { orderId: 5 });
        journal.move(other, 'REJECTED', 'refused');
        journal.markUnknown(cid, 'timeout');
        journal.note(other, { resolveLooks: 3 });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.orders.get(cid)).toMatchObject({ state: 'PENDING', orderId: null });
    expect(store.orders.get(other)).toMatchObject({ state: 'PENDING', resolveLooks: 0 });
    expect(store.orders.history(cid).map((h) => h.to)).toEqual(['PENDING']);
    expect(store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([]);
    store.tx(() => {
      journal.move(cid, 'OPEN', 'placed', { orderId: 5 });
      journal.move(other, 'REJECTED', 'refused');
    });
    expect(store.orders.getByOrderId(5)).toMatchObject({ clientOrderId: cid, state: 'OPEN' });
    expect(store.orders.history(other).map((h) => h.to)).toEqual(['PENDING', 'REJECTED']);
    expect(store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([other]);
  });

  it("joins a caller's store.tx only, not the scratch store's batch: there a move outside a tx is still its own savepoint", () => {
    const clock = new ManualClock(1_000);
    const store = openScratchStore({ clock, logger: silentLogger() });
    closeAfterTest(store);
    const journal = new OrderJournal(store, clock);
    store.batch.begin();
    const [cid] = journal.open('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('1') }], 'limit') as [string];
    expect(store.orders.inTransaction).toBe(false);
    expect(store.tx(() => store.orders.inTransaction)).toBe(true);
    expect(journal.move(cid, 'OPEN', 'placed', { orderId: 9 })).toBe('OPEN');
    store.batch.commit();
    expect(store.orders.inTransaction).toBe(false);
    expect(store.orders.getByOrderId(9)).toMatchObject({ clientOrderId: cid, state: 'OPEN' });
  });

  it('PENDING rows with a request in flight are not orphans; the others become UNKNOWN', () => {
    const { store, journal, cid } = setup();
    const [other] = journal.open('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('1') }], 'limit') as [string];
    journal.begin([cid]);
    journal.orphansToUnknown();
    expect([store.orders.get(cid)?.state, store.orders.get(other)?.state]).toEqual(['PENDING', 'UNKNOWN']);
    journal.end([cid]);
    expect(journal.isInFlight(cid)).toBe(false);
    journal.orphansToUnknown();
    expect(store.orders.get(cid)?.state).toBe('UNKNOWN');
  });

  it('opens no transaction when every PENDING row has its request in flight (the usual pass)', () => {
    const { store, journal, cid } = setup();
    journal.begin([cid]);
    let txs = 0;
    const tx = store.tx.bind(store);
    store.tx = ((fn: () => unknown) => {
      txs++;
      return tx(fn);
    }) as typeof store.tx;
    journal.orphansToUnknown();
    expect(txs).toBe(0);
    expect(store.orders.get(cid)?.state).toBe('PENDING');
    journal.end([cid]);
    journal.orphansToUnknown();
    expect(txs).toBe(1);
    expect(store.orders.get(cid)?.state).toBe('UNKNOWN');
  });
});
