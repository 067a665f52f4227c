/** Webhook JSON and Telegram text: exact decimal strings, ISO time, every event type. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { toText, toWebhookJson } from '../../../src/notify/format.js';
import type { DailySummaryEvent } from '../../../src/notify/events.js';
import { fillEvent } from '../../support/notify-fixtures.js';

describe('webhook JSON', () => {
  it('a fill: money as exact decimal strings, ids as strings, ISO time', () => {
    const json = toWebhookJson(fillEvent(), 'v4-bot paper');
    expect(json).toEqual({
      type: 'fill',
      time: '2026-01-02T03:04:05.678Z',
      source: 'v4-bot paper',
      strategy: 'grid',
      market: 'BTC_USDT',
      side: 'buy',
      role: 'maker',
      price: '60000.123456789012345678',
      amount: '0.00000001',
      quote: '0.00060000123456789',
      fee: '0.0000000012',
      feeAsset: 'USDT',
      dealId: '9007199254740991',
      clientOrderId: 'grid-abc-1',
    });
    // No JSON number anywhere a money value is.
    expect(JSON.stringify(json)).not.toMatch(/"(price|amount|quote|fee)":\d/);
  });

  it('a daily summary: PnL lines as strings, counts as numbers', () => {
    const e: DailySummaryEvent = {
      type: 'daily_summary',
      atMs: Date.UTC(2026, 10, 23),
      fromMs: Date.UTC(2026, 10, 22),
      day: '2026-11-22',
      tradingState: 'ACTIVE',
      fills: 12,
      openOrders: 4,
      pnl: [{ quote: 'USDT', realised: dec('10.1'), fees: dec('0.0000001'), realisedNetOfFees: dec('10.0999999') }],
      otherFees: [{ asset: 'BTC', amount: dec('0.00000002') }],
      alerts: [{ kind: 'overfill', count: 2 }],
      equity: {
        asset: 'USDT', atMs: Date.UTC(2026, 10, 22, 23, 59, 45), total: dec('40009.2'), peak: dec('40100'),
        parts: { balances: dec('28400.1'), held: dec('11609.1'), positions: dec('0'), flex: dec('0') }, unvalued: [{ asset: 'XYZ', amount: dec('5') }],
      },
    };
    expect(toWebhookJson(e, 's')).toMatchObject({
      equity: {
        asset: 'USDT', at: '2026-11-22T23:59:45.000Z', total: '40009.2', peak: '40100',
        parts: { balances: '28400.1', held: '11609.1', positions: '0', flex: '0' }, unvalued: [{ asset: 'XYZ', amount: '5' }],
      },
    });
    expect(toWebhookJson(e, 's')).toMatchObject({
      type: 'daily_summary',
      time: '2026-11-23T00:00:00.000Z',
      from: '2026-11-22T00:00:00.000Z',
      pnl: [{ quote: 'USDT', realised: '10.1', fees: '0.0000001', realisedNetOfFees: '10.0999999' }],
      otherFees: [{ asset: 'BTC', amount: '0.00000002' }],
      alerts: [{ kind: 'overfill', count: 2 }],
      fills: 12,
      openOrders: 4,
    });
    const text = toText(e, 'v4-bot live');
    expect(text).toContain('[v4-bot live] Daily summary 2026-11-22 (UTC)');
    expect(text).toContain('PnL USDT: 10.0999999 net (10.1 before 0.0000001 fees)');
    expect(text).toContain('fees in BTC: 0.00000002');
    expect(text).toContain('overfill ×2');
    expect(text).toContain('equity 40009.2 USDT (peak 40100) = balances 28400.1 + held 11609.1 + positions 0 + flex 0');
    expect(text).toContain('not valued (no price into USDT): 5 XYZ');
    expect(toText({ ...e, equity: null }, 'b')).toContain('equity: not checked yet');
  });
});

describe('Telegram text', () => {
  it('is one short line per event with exact figures', () => {
    expect(toText(fillEvent(), 'v4-bot paper')).toBe('[v4-bot paper] Fill grid BTC_USDT: buy 0.00000001 @ 60000.123456789012345678 (maker, fee 0.0000000012 USDT)');
    expect(toText({ type: 'trading_state', atMs: 0, from: 'ACTIVE', to: 'HALTED', reason: 'drawdown kill switch (risk gate)' }, 'b')).toBe(
      '[b] Trading state ACTIVE → HALTED: drawdown kill switch (risk gate)',
    );
    expect(toText({ type: 'alert', atMs: 0, kind: 'protective_leg_missing', subject: 'g-1', detail: 'no stop-loss listed' }, 'b')).toBe('[b] ALERT protective_leg_missing (g-1): no stop-loss listed');
    expect(toText({ type: 'quarantine', atMs: 0, strategyId: 'grid', reason: 'hook deadline' }, 'b')).toBe('[b] Strategy grid quarantined: hook deadline');
    expect(toText({ type: 'refusal', atMs: 0, strategyId: 'grid', code: 'MAX_NOTIONAL', detail: 'd', suppressed: 0, windowMs: 900_000 }, 'b')).toBe('[b] Refused (grid): MAX_NOTIONAL: d');
    expect(toText({ type: 'refusal', atMs: 0, strategyId: 'grid', code: 'MAX_NOTIONAL', detail: 'd', suppressed: 7, windowMs: 900_000 }, 'b')).toBe(
      '[b] Refused (grid): MAX_NOTIONAL: +7 more in the last 15 min; last: d',
    );
  });

  it('cuts an overlong detail below Telegram’s 4096-character limit', () => {
    const text = toText({ type: 'alert', atMs: 0, kind: 'k', subject: 's', detail: 'x'.repeat(10_000) }, 'b');
    expect(text.length).toBe(4000);
    expect(text.endsWith('…')).toBe(true);
  });
});
