import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { parseIntents } from '../../../src/strategy-api/host.js';
import type { OrderView, PositionView } from '../../../src/strategy-api/index.js';
import { collateralSignalParams, decide } from '../../../strategies/collateral-signal.js';
import { ctxOf, MemoryState, price, snapshot } from '../../support/daemon-ctx.js';

const params = collateralSignalParams.parse({ market: 'BTC_PERP', amount: '0.01', lookbackTicks: 2, thresholdPct: '1', stopLossPct: '2', takeProfitPct: '4' });

function tick(backend: MemoryState, last: string, over: Parameters<typeof snapshot>[0] = {}, nowMs = 1_700_000_000_000): ReturnType<typeof parseIntents> {
  const { ctx, state } = ctxOf(params, snapshot({ nowMs, prices: { BTC_PERP: price('BTC_PERP', last, '1') }, ...over }), backend);
  const out = parseIntents(decide(ctx), 't1');
  state.commit();
  return out;
}

const position = (base: string, stopLoss: string | null): PositionView => ({
  market: 'BTC_PERP',
  kind: 'collateral',
  base: new Decimal(base),
  avgEntryPrice: new Decimal(100),
  protection: { stopLoss: stopLoss === null ? null : new Decimal(stopLoss), takeProfit: null },
});

describe('collateral-signal', () => {
  it('waits for enough history, then enters long on an up-move with stop-loss and take-profit', () => {
    const backend = new MemoryState();
    expect(tick(backend, '100')).toEqual([]);
    expect(tick(backend, '100.5')).toEqual([]);
    const out = tick(backend, '102');
    expect(out).toHaveLength(1);
    const entry = out[0];
    if (entry?.type !== 'placeCollateral') throw new Error('expected an entry');
    expect(entry.side).toBe('buy');
    expect(entry.price.toFixed()).toBe('103');
    expect(entry.stopLoss?.toFixed()).toBe('100.94');
    expect(entry.takeProfit?.toFixed()).toBe('107.12');
    expect(entry.exit).toBeUndefined();
  });

  it('enters short on a down-move', () => {
    const backend = new MemoryState();
    tick(backend, '100');
    tick(backend, '99.5');
    const entry = tick(backend, '98')[0];
    expect(entry?.type === 'placeCollateral' && entry.side).toBe('sell');
  });

  it('stays flat on a small move', () => {
    const backend = new MemoryState();
    tick(backend, '100');
    tick(backend, '100.2');
    expect(tick(backend, '100.5')).toEqual([]);
  });

  it('holds a protected position', () => {
    const backend = new MemoryState();
    expect(tick(backend, '100', { positions: [position('0.01', '98')] })).toEqual([]);
  });

  it('exits a position whose stop-loss leg is missing, with an ioc exit on the other side', () => {
    const backend = new MemoryState();
    const out = tick(backend, '100', { positions: [position('0.01', null)] });
    const exit = out[0];
    if (exit?.type !== 'placeCollateral') throw new Error('expected an exit');
    expect(exit).toMatchObject({ side: 'sell', exit: true, ioc: true });
    expect(exit.amount.toFixed()).toBe('0.01');
    expect(exit.price.lt(99)).toBe(true);
    expect(exit.stopLoss).toBeUndefined();
  });

  it('exits a short without protection by buying', () => {
    const out = tick(new MemoryState(), '100', { positions: [{ ...position('-0.02', null), protection: null }] });
    expect(out[0]).toMatchObject({ type: 'placeCollateral', side: 'buy', exit: true });
  });

  it('does not send a second exit while one is open', () => {
    const open: OrderView = { clientOrderId: 't1-1', market: 'BTC_PERP', side: 'sell', kind: 'collateral', state: 'OPEN', amount: new Decimal('0.01'), price: new Decimal(99), filled: new Decimal(0), remaining: new Decimal('0.01'), createdMs: 0 };
    expect(tick(new MemoryState(), '100', { positions: [position('0.01', null)], openOrders: [open] })).toEqual([]);
  });

  it('cancels an entry that did not fill in time', () => {
    const open: OrderView = { clientOrderId: 't1-2', market: 'BTC_PERP', side: 'buy', kind: 'collateral', state: 'OPEN', amount: new Decimal('0.01'), price: new Decimal(99), filled: new Decimal(0), remaining: new Decimal('0.01'), createdMs: 0 };
    expect(tick(new MemoryState(), '100', { openOrders: [open] }, 30_000)).toEqual([]);
    expect(tick(new MemoryState(), '100', { openOrders: [open] }, 61_000)).toEqual([{ type: 'cancel', clientOrderId: 't1-2' }]);
  });
});
