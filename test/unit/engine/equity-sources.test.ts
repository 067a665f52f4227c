/**
 * The journal's side of equity: active flex investments from the ledger, and one reading that
 * pairs the venue's balances with a journal that did not move while the venue answered.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { activeFlex, type JournalParts } from '../../../src/engine/equity-sources.js';
import { readEquity } from '../../../src/engine/equity-reader.js';
import type { FlexRecordRow } from '../../../src/model/flex.js';

const row = (investmentId: string, actionType: string, amount: string, currency = 'USDT'): FlexRecordRow => ({
  transactionId: `${investmentId}-${actionType}-${amount}`, createdAtMs: 0, planId: `p-${investmentId}`, investmentId, currency, amount: dec(amount), actionType,
});

describe('active flex', () => {
  it('counts invested, reinvested and earned minus withdrawn, per currency, and nothing of a closed investment', () => {
    const flex = activeFlex([
      row('a', 'INVEST', '100'), row('a', 'DAILY_EARNING', '0.01'), row('a', 'WITHDRAW_FROM_INVESTMENT', '-20'), row('a', 'REINVEST', '5'),
      row('b', 'OPEN_INVESTMENT', '0.5', 'BTC'),
      row('c', 'INVEST', '70'), row('c', 'CLOSE_INVESTMENT', '70'),
    ]);
    expect(Object.fromEntries(Object.entries(flex).map(([k, v]) => [k, v.toFixed()]))).toEqual({ USDT: '85.01', BTC: '0.5' });
  });
});

function parts(fingerprint: string, held: string, pending = 0): JournalParts {
  return { held: { byAsset: { USDT: dec(held) }, orders: [], unruled: [] }, positions: [], flex: {}, unruled: [], pending, fingerprint };
}

describe('one equity reading', () => {
  const venue = { prices: {}, balances: { USDT: new Decimal(900) } };

  it('reads again when the journal moved during the balance read, and keeps the settled reading', async () => {
    const journal = [parts('a', '0'), parts('b', '100'), parts('b', '100'), parts('b', '100')];
    let reads = 0;
    const r = await readEquity({ equityAsset: 'USDT', sources: { read: () => journal[reads++] as JournalParts }, fresh: async () => venue });
    expect(r.settled).toBe(true);
    expect(r.attempts).toBe(2);
    expect(r.equity.total.toFixed()).toBe('1000');
  });

  it('reads again while a placement awaits its answer, and gives up after the last attempt', async () => {
    const r = await readEquity({ equityAsset: 'USDT', sources: { read: () => parts('a', '100', 1) }, fresh: async () => venue, attempts: 3 });
    expect(r.settled).toBe(false);
    expect(r.attempts).toBe(3);
    expect(r.equity.parts.held.toFixed()).toBe('100');
  });

  it('reconciles and reads again when the venue holds deals the journal has not applied', async () => {
    let unapplied = true;
    let reconciled = 0;
    const r = await readEquity({
      equityAsset: 'USDT',
      sources: { read: () => parts('a', unapplied ? '100' : '0') },
      fresh: async () => venue,
      unappliedDeals: async () => unapplied,
      reconcile: async () => {
        reconciled++;
        unapplied = false;
      },
    });
    expect([r.settled, r.attempts, reconciled]).toEqual([true, 2, 1]);
    expect(r.equity.parts.held.toFixed()).toBe('0');
  });
});
