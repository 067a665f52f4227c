/**
 * The chaos checks on hand-built evidence: each one passes on a consistent history and names the
 * order or deal when the history breaks its rule.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.js';
import type { Bracket, BracketLeg } from '../../src/simulator/index.js';
import type { AlertRecord, BalanceAuditRecord } from '../../src/store/index.js';
import type { FillRecord } from '../../src/model/fills.js';
import type { OrderRecord } from '../../src/model/journal.js';
import { auditFigures, noUnexplainedBalance } from './checks/balance-audit.js';
import { daemonNeverDied } from './checks/daemon-runs.js';
import { noFalseDrawdownHalt } from './checks/drawdown.js';
import { exitsOnlyReduce } from './checks/exits.js';
import { fillsMatchDeals, marketSumsMatch, orderFilledMatch } from './checks/fills.js';
import { legFillsToTrueParent } from './checks/leg-attribution.js';
import { noFalseLegAlert } from './checks/leg-alerts.js';
import { everyOrderJournaled, noDuplicatePlacement } from './checks/orders.js';
import { positionWithinLimit } from './checks/position-limit.js';
import type { Evidence, VenueDeal, VenueOrder } from './evidence.js';

const d = (s: string): Decimal => new Decimal(s);

function deal(dealId: number, orderId: number, clientOrderId: string, side: 'buy' | 'sell', amount = '0.002', market = 'BTC_PERP'): VenueDeal {
  return { dealId, orderId, clientOrderId, market, side, amount: d(amount), price: d('60000'), quote: d(amount).mul(60000), fee: d('0.01'), timeMs: dealId * 1000 };
}

function venueOrder(orderId: number, clientOrderId: string, side: 'buy' | 'sell', filled = '0.002', ocoId: number | null = null): VenueOrder {
  return { orderId, clientOrderId, market: 'BTC_PERP', side, status: 'FILLED', amount: d('0.002'), filled: d(filled), ocoId };
}

function storeOrder(clientOrderId: string, orderId: number | null, side: 'buy' | 'sell', opts: { stopLoss?: string; filled?: string; state?: OrderRecord['state']; createdMs?: number; strategyId?: string } = {}): OrderRecord {
  return {
    clientOrderId, strategyId: opts.strategyId ?? 'sig', kind: 'collateral', market: 'BTC_PERP', side, amount: d('0.002'), price: d('60000'),
    postOnly: false, ioc: opts.stopLoss === undefined, rpi: false, stopLoss: opts.stopLoss === undefined ? null : d(opts.stopLoss), takeProfit: null,
    positionSide: null, state: opts.state ?? 'FILLED', orderId, otoId: null, reason: null, filledBase: d(opts.filled ?? '0.002'),
    createdMs: opts.createdMs ?? 0, updatedMs: 0, unknownSinceMs: null, resolveLooks: 0, reportedFilledBase: d('0'), reportedFilledQuote: d('0'),
  };
}

function fillOf(x: VenueDeal, owner: string | null): FillRecord {
  return { dealId: x.dealId, orderId: x.orderId, clientOrderId: x.clientOrderId, market: x.market, side: x.side, role: 'taker', timeMs: x.timeMs, amount: x.amount, price: x.price, quote: x.quote, fee: x.fee, feeAsset: 'USDT', strategyId: owner === null ? null : 'sig', ownerClientOrderId: owner };
}

function leg(orderId: number, status: string, mtimeMs: number, createdMs = 0): BracketLeg {
  return { orderId, status, mtimeMs, createdMs, amount: '0.002' };
}

function bracket(parent: string, parentOrderId: number, sl: BracketLeg | null, tp: BracketLeg | null): Bracket {
  return { otoId: parentOrderId + 1000, parentOrderId, parentClientOrderId: parent, market: 'BTC_PERP', otoActive: false, ocoId: parentOrderId + 2000, ocoActive: false, stopLoss: sl, takeProfit: tp };
}

function asset(name: string, verdict: string, fromMs: number | null, difference: string): Record<string, unknown> {
  return { asset: name, verdict, fromMs, toMs: 0, actual: difference, expected: '0', difference, allowed: '0' };
}

function audit(atMs: number, outcome: string, assets: Record<string, unknown>[]): BalanceAuditRecord {
  return { id: atMs, atMs, outcome, fromMs: null, detail: { atMs, outcome, fromMs: null, assets, externalFills: 0 } };
}

/** A consistent history: entry e1 (order 1) long 0.002, closed by its take-profit leg (order 12). */
function consistent(): Evidence {
  const deals = [deal(100, 1, 'e1', 'buy'), deal(101, 12, '', 'sell')];
  return {
    venue: {
      orders: [venueOrder(1, 'e1', 'buy'), venueOrder(11, '', 'sell', '0', 2001), venueOrder(12, '', 'sell', '0.002', 2001)],
      deals,
      brackets: [bracket('e1', 1, leg(11, 'CANCELLED', 101_000), leg(12, 'FILLED', 101_000))],
      sums: { BTC_PERP: { count: 2, base: '0.004', quote: '240', fees: '0.02' } },
    },
    store: {
      orders: [storeOrder('e1', 1, 'buy', { stopLoss: '59000' })],
      fills: [fillOf(deals[0] as VenueDeal, 'e1'), fillOf(deals[1] as VenueDeal, 'e1')],
      alerts: [],
      everUnknown: [],
      tradingState: null,
      audits: [audit(90_000, 'started', []), audit(110_000, 'clean', [asset('USDT', 'explained', 90_000, '0'), asset('BTC', 'explained', 90_000, '0')])],
    },
    venueSettle: { fromMs: 200_000, toMs: 200_500 },
    equity: { samples: [1000, 1010, 990].map((e, i) => ({ atMs: 100_000 + i * 1000, equity: d(String(e)) })), limitPct: '10' },
    runs: [{ index: 0, ready: true, endedBy: 'kill', code: null, signal: 'SIGKILL' }, { index: 1, ready: true, endedBy: 'term', code: 0, signal: null }],
    limits: { BTC_PERP: '0.002' },
    signalInstances: ['sig'],
  };
}

const ALL = [
  fillsMatchDeals, marketSumsMatch, orderFilledMatch, noDuplicatePlacement, everyOrderJournaled, positionWithinLimit, exitsOnlyReduce, noFalseLegAlert, legFillsToTrueParent, daemonNeverDied,
  noFalseDrawdownHalt, noUnexplainedBalance,
];

describe('chaos checks', () => {
  it('all pass on a consistent history', () => {
    for (const c of ALL) expect(c.run(consistent()), c.name).toEqual([]);
  });

  it('fills: a missing deal, a changed fee and a fill the venue never made are named', () => {
    const ev = consistent();
    ev.store.fills = [{ ...(ev.store.fills[0] as FillRecord), fee: d('0.02') }, { ...(ev.store.fills[1] as FillRecord), dealId: 999 }];
    const v = fillsMatchDeals.run(ev);
    expect(v).toHaveLength(3);
    expect(v.join('\n')).toMatch(/deal 100: store has .*0\.02, venue has .*0\.01/);
    expect(v.join('\n')).toContain('deal 101 (order 12 leg, BTC_PERP sell 0.002) is missing from the store');
    expect(v.join('\n')).toContain('fill 999');
    expect(marketSumsMatch.run(ev)).toEqual(['BTC_PERP: store 2 fills, base 0.004, quote 240, fees 0.03; venue 2 fills, base 0.004, quote 240, fees 0.02']);
  });

  it('per order: a filled amount that differs from the venue is named', () => {
    const ev = consistent();
    ev.store.orders = [storeOrder('e1', 1, 'buy', { stopLoss: '59000', filled: '0.001' })];
    expect(orderFilledMatch.run(ev)).toEqual(['order e1 (venue 1): store filled 0.001, venue filled 0.002']);
  });

  it('orders: a clientOrderId placed twice, an order without journal row, a REJECTED order that exists', () => {
    const ev = consistent();
    ev.venue.orders.push(venueOrder(5, 'e1', 'buy'), venueOrder(6, 'ghost', 'buy'));
    ev.store.orders.push(storeOrder('ghost2', null, 'buy', { state: 'REJECTED' }));
    ev.venue.orders.push(venueOrder(7, 'ghost2', 'buy'));
    expect(noDuplicatePlacement.run(ev)).toEqual(['clientOrderId e1 placed 2 times at the venue (orders 1, 5)']);
    expect(everyOrderJournaled.run(ev)).toEqual(['venue order 6 (ghost) has no journal row', 'order ghost2 is REJECTED in the store but exists at the venue']);
  });

  it('position limit: the deal that takes the venue position beyond the limit is named, a reduction is not', () => {
    const ev = consistent();
    ev.venue.deals = [deal(100, 1, 'e1', 'buy'), deal(102, 2, 'e2', 'buy'), deal(103, 12, '', 'sell')];
    expect(positionWithinLimit.run(ev)).toEqual(['BTC_PERP deal 102 (e2, buy 0.002): venue position 0.002 → 0.004, limit 0.002']);
  });

  it('exits: an exit against a flat or smaller position is named, a reducing one is not', () => {
    const ev = consistent();
    ev.store.orders.push(storeOrder('x1', 3, 'sell'), storeOrder('x2', 4, 'sell'));
    // e1 long 0.002, its leg closes it, then exit x1 sells 0.002 (opens short), then x2 sells 0.001 (grows it).
    ev.venue.deals = [deal(100, 1, 'e1', 'buy'), deal(101, 12, '', 'sell'), deal(102, 3, 'x1', 'sell'), deal(103, 4, 'x2', 'sell', '0.001')];
    expect(exitsOnlyReduce.run(ev)).toEqual([
      'exit x1 deal 102: sell 0.002 against a venue position of 0 (→ -0.002)',
      'exit x2 deal 103: sell 0.001 against a venue position of -0.002 (→ -0.003)',
    ]);
    ev.venue.deals = [deal(100, 1, 'e1', 'buy'), deal(102, 3, 'x1', 'sell', '0.001')];
    expect(exitsOnlyReduce.run(ev)).toEqual([]);
  });

  it('leg alerts: false when a leg had executed or was listed, true when the legs were cancelled before', () => {
    const alert = (id: number, atMs: number): AlertRecord => ({ id, atMs, kind: 'protective_leg_missing', subject: 'e1', detail: 'leg no longer listed and no fill seen' });
    const ev = consistent();
    ev.store.alerts = [alert(1, 101_500)];
    expect(noFalseLegAlert.run(ev)).toEqual(['alert 1 "leg no longer listed and no fill seen" for e1: its take-profit leg 12 had executed 500 ms before']);
    ev.store.alerts = [alert(2, 100_500)];
    expect(noFalseLegAlert.run(ev)[0]).toMatch(/stop-loss leg 11 was listed at the venue; its take-profit leg 12 was listed/);
    ev.venue.brackets = [bracket('e1', 1, leg(11, 'CANCELLED', 100_400), leg(12, 'CANCELLED', 100_400))];
    expect(noFalseLegAlert.run(ev)).toEqual([]);
  });

  it('leg attribution: a leg fill credited to another parent is named', () => {
    const ev = consistent();
    ev.store.fills[1] = fillOf(ev.venue.deals[1] as VenueDeal, 'e2');
    expect(legFillsToTrueParent.run(ev)).toEqual(['deal 101 of the take-profit leg 12 of e1 is credited to e2']);
  });

  it('daemon runs: a run that ended on its own, or a SIGTERM that did not exit 0, is named', () => {
    const ev = consistent();
    ev.runs.push({ index: 2, ready: false, endedBy: null, code: 1, signal: null }, { index: 3, ready: true, endedBy: 'term', code: 1, signal: null });
    expect(daemonNeverDied.run(ev)).toEqual(['daemon run 2 ended on its own (exit code 1, signal null, never ready)', 'daemon run 3 stopped by SIGTERM with exit code 1 (signal null)']);
  });

  it('drawdown: a drawdown halt while the true equity never fell by the limit is named; a halt after such a fall, or another halt, is not', () => {
    const ev = consistent();
    const equity = (values: number[]) => values.map((e, i) => ({ atMs: 100_000 + i * 1000, equity: d(String(e)) }));
    ev.store.tradingState = { state: 'HALTED', reason: 'drawdown: equity 28324.00 below peak 40000.00 by more than 10 %', atMs: 101_500 };
    ev.equity.samples = equity([40_000, 40_100, 39_900, 28_000]);
    // The fall at 103 000 comes after the halt and the first sample after it: not the halt's cause.
    expect(noFalseDrawdownHalt.run(ev)).toEqual([
      'drawdown halt at 1970-01-01T00:01:41.500Z ("drawdown: equity 28324.00 below peak 40000.00 by more than 10 %") while the true equity fell at most 0.4988 % from its peak (limit 10 %)',
    ]);
    ev.equity.samples = equity([40_000, 35_900, 36_000]);
    expect(noFalseDrawdownHalt.run(ev)).toEqual([]);
    ev.equity.samples = [];
    expect(noFalseDrawdownHalt.run(ev)[0]).toContain('no true equity sample to show a loss');
    ev.store.tradingState = { state: 'HALTED', reason: 'STORE_ERROR: disk full', atMs: 101_500 };
    expect(noFalseDrawdownHalt.run(ev)).toEqual([]);
  });

  it('balance audit: an unexplained-balance alert is false unless the venue settled the account inside its window', () => {
    const ev = consistent();
    const alert = (id: number, atMs: number, subject: string): AlertRecord => ({ id, atMs, kind: 'books_unexplained', subject, detail: `${subject}: main balance changed by +1` });
    ev.store.audits.push(audit(150_000, 'unexplained', [asset('BTC', 'unexplained', 110_000, '0.01'), asset('USDT', 'explained', 110_000, '0')]));
    ev.store.audits.push(audit(210_000, 'unexplained', [asset('USDT', 'unexplained', 150_000, '-12')]));
    ev.store.alerts.push(alert(7, 150_000, 'BTC'), alert(8, 210_000, 'USDT'), alert(9, 250_000, 'ETH'));
    expect(noUnexplainedBalance.run(ev)).toEqual([
      'alert 7 "BTC: main balance changed by +1": no venue-side change in its window (the run traded only through the bot)',
      'alert 9 (ETH) has no stored audit result with its window',
    ]);
    ev.venueSettle = null;
    expect(noUnexplainedBalance.run(ev)).toHaveLength(3);
    expect(auditFigures(consistent())).toEqual({
      'asset windows (explained/deferred/unconfirmed/unexplained/started)': 'BTC 1/0/0/0/0; USDT 1/0/0/0/0',
      'largest |difference| judged explained': 'BTC 0; USDT 0',
    });
  });
});
