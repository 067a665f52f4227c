import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { AuthError } from '../../../src/core/errors.js';
import type { FlexRecord } from '../../../src/model/flex.js';
import type { Loan } from '../../../src/model/credit.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { FLEX_CHECKPOINT, FlexJob, flexEarnings, flexEarningsTotal } from '../../../src/engine/flex-job.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { FakeGateway } from '../../support/fake-gateway.js';

const d = (s: string) => new Decimal(s);
const logger = silentLogger();
/** A store in a fresh directory, closed when the test finishes. */
function setup(): { store: Store; dir: string; clock: ManualClock } {
  const dir = tempDir();
  const clock = new ManualClock(1_700_000_000_000);
  return { store: closeAfterTest(openStore({ dataDir: dir, clock, logger })), dir, clock };
}

describe('TradingStateController', () => {
  it('persists across a restart and notifies listeners on change only', () => {
    const { store, clock, dir } = setup();
    const ts = new TradingStateController(store, clock, logger);
    expect(ts.get()).toBe('ACTIVE');
    const seen: string[] = [];
    ts.onChange((c) => seen.push(`${c.from}->${c.to}`));
    ts.set('HALTED', 'operator');
    ts.set('HALTED', 'operator again');
    expect(seen).toEqual(['ACTIVE->HALTED']);
    store.close();
    const reopened = closeAfterTest(openStore({ dataDir: dir, clock, logger }));
    expect(new TradingStateController(reopened, clock, logger).get()).toBe('HALTED');
  });
});

function loan(ltv: string): Loan {
  return { asset: 'USDT', amount: d('1000'), totalFunding: d('1000'), currentLtv: d(ltv), initialLtv: d('0.5'), marginCallLtv: d('0.7'), liquidationLtv: d('0.8'), createdAtMs: 0 };
}

describe('CreditJob', () => {
  it('no active loan is normal; LTV ≥ 0.8 × marginCall → REDUCE_ONLY; back to ACTIVE only below 0.7 × (hysteresis)', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    const ts = new TradingStateController(store, clock, logger);
    const job = new CreditJob({ store, gateway: g, clock, logger, tradingState: ts });
    expect(await job.runOnce()).toEqual({ active: false });
    expect(store.credit.latest()?.active).toBe(false);
    g.credit = { active: true, loan: loan('0.56') }; // 0.56 / 0.7 = 0.8
    expect(await job.runOnce()).toMatchObject({ action: 'reduce_only' });
    expect(ts.get()).toBe('REDUCE_ONLY');
    g.credit = { active: true, loan: loan('0.5') }; // 0.714: inside the band, stays
    await job.runOnce();
    expect(ts.get()).toBe('REDUCE_ONLY');
    g.credit = { active: true, loan: loan('0.48') }; // 0.686 < 0.7
    expect(await job.runOnce()).toMatchObject({ action: 'resumed' });
    expect(ts.get()).toBe('ACTIVE');
    expect(store.credit.latest()?.currentLtv?.toFixed()).toBe('0.48');
  });

  it('a key without the credit line (404): one call, then the job stays quiet', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    g.credit = new AuthError('feature_unavailable', 'creditLine: HTTP 404');
    const job = new CreditJob({ store, gateway: g, clock, logger, tradingState: new TradingStateController(store, clock, logger) });
    expect(await job.runOnce()).toEqual({ active: false, disabled: true });
    g.credit = new Error('must not be called');
    expect(await job.runOnce()).toEqual({ active: false, disabled: true });
  });

  it('never lifts a HALTED state or a REDUCE_ONLY it did not set', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    const ts = new TradingStateController(store, clock, logger);
    const job = new CreditJob({ store, gateway: g, clock, logger, tradingState: ts });
    ts.set('REDUCE_ONLY', 'operator');
    g.credit = { active: true, loan: loan('0.1') };
    await job.runOnce();
    expect(ts.get()).toBe('REDUCE_ONLY');
    ts.set('HALTED', 'kill switch');
    g.credit = { active: true, loan: loan('0.69') };
    await job.runOnce();
    expect(ts.get()).toBe('HALTED');
  });
});

function rec(i: number, day: number, type: FlexRecord['actionType'] = 'DAILY_EARNING', amount = '0.01'): FlexRecord {
  return { transactionId: `t${i}`, createdAtMs: 1_700_000_000_000 + day * 86_400_000 + i, planId: 'p', investmentId: 'inv', currency: 'USDT', amount: d(amount), actionType: type };
}

describe('FlexJob', () => {
  it('pulls incrementally, keeps every action type, de-duplicates, and sums earnings per currency per day exactly', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    g.flexLedger = [rec(0, 0, 'INVEST', '100'), ...Array.from({ length: 250 }, (_, i) => rec(i + 1, i % 3))];
    const job = new FlexJob({ store, gateway: g, clock, logger });
    expect(await job.runOnce()).toMatchObject({ status: 'ok', newRecords: 251, pages: 3 });
    expect(await job.runOnce()).toMatchObject({ newRecords: 0 });
    g.flexLedger.push(rec(300, 3, 'CLOSE_INVESTMENT', '100'), rec(301, 3));
    expect(await job.runOnce()).toMatchObject({ newRecords: 2 });
    const rows = store.flex.all();
    expect(rows).toHaveLength(253);
    expect(new Set(rows.map((r) => r.actionType))).toEqual(new Set(['INVEST', 'DAILY_EARNING', 'CLOSE_INVESTMENT']));
    expect(flexEarningsTotal(rows)['USDT']?.toFixed()).toBe('2.51');
    expect(Object.values(flexEarnings(rows)['USDT'] ?? {}).map((v) => v.toFixed())).toEqual(['0.84', '0.83', '0.83', '0.01']);
    // second and third pulls started from the checkpoint
    const last = g.calls.filter((c) => c.method === 'flexHistory').at(-1)?.arg as { dateFrom?: number };
    expect(last.dateFrom).toBe(Math.floor(rec(250, 2).createdAtMs / 1000) - 3600); // newest of the 2nd pull − overlap
  });

  it('a partner-only 403 disables the job after one call, without throwing', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    g.flexError = new AuthError('permission_denied', "You don't have permission to use this endpoint.");
    const job = new FlexJob({ store, gateway: g, clock, logger });
    expect(await job.runOnce()).toMatchObject({ status: 'disabled' });
    expect(await job.runOnce()).toMatchObject({ status: 'disabled' });
    expect(g.calls.filter((c) => c.method === 'flexHistory')).toHaveLength(1);
    expect(job.isDisabled()).toBe(true);
    expect(store.meta.get('flex.disabled')).toMatch(/AUTH_PERMISSION_DENIED/);
  });

  it('other errors propagate (the scheduler counts them) and leave the checkpoint alone', async () => {
    const { store, clock } = setup();
    const g = new FakeGateway();
    g.flexError = new Error('boom');
    await expect(new FlexJob({ store, gateway: g, clock, logger }).runOnce()).rejects.toThrow('boom');
    expect(store.checkpoints.get(FLEX_CHECKPOINT)).toBeUndefined();
  });
});
