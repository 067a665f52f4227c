import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { FlexJob, flexEarningsTotal } from '../../../src/engine/flex-job.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor } from '../../support/engine-stack.js';
import { useStack } from '../../support/test-scope.js';

const DAY = 86_400_000;
const keys = { apiKey: 'flexkey', apiSecret: 'flexsecret' };

describe('flex earnings over HTTP', () => {
  it('a simulated week yields exactly the simulator earnings; re-running the pull adds nothing', async () => {
    const stack = await useStack({
      stepMs: 3_600_000,
      accounts: [
        {
          ...keys,
          balances: { USDT: '50000' },
          flex: [
            { currency: 'USDT', amount: '10000', dailyRate: '0.000137' },
            { currency: 'BTC', amount: '0.5', dailyRate: '0.0000411' },
          ],
        },
      ],
    });
    const { sim, clock } = stack;
    const dir = tempDir();
    const e = engineFor(dir, sim, clock, { keys, venue: { flexPageSize: 10 } });
    try {
      const job = new FlexJob({ store: e.store, gateway: e.gateway, clock, logger: silentLogger() });
      for (let day = 0; day < 7; day++) {
        clock.advance(DAY);
        if (day % 3 === 0) await job.runOnce(); // incremental pulls mid-week
      }
      await job.runOnce();
      const truth = sim.truth(keys.apiKey);
      const ledger = truth.flex.ledger;
      expect(ledger.length).toBeGreaterThan(14);
      const expected: Record<string, Decimal> = {};
      for (const r of ledger) {
        if (r['actionType'] === 4 || r['actionType'] === 'DAILY_EARNING') {
          const c = r['currency'] as string;
          expected[c] = (expected[c] ?? ZERO).plus(new Decimal(r['amount'] as string));
        }
      }
      const rows = e.store.flex.all();
      expect(rows.map((r) => r.transactionId).sort()).toEqual(ledger.map((r) => r['transactionId'] as string).sort());
      const got = flexEarningsTotal(rows);
      expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
      for (const c of Object.keys(expected)) expect(got[c]?.toFixed()).toBe(expected[c]?.toFixed());
      const before = e.store.flex.count();
      expect(await job.runOnce()).toMatchObject({ status: 'ok', newRecords: 0 });
      expect(e.store.flex.count()).toBe(before);
    } finally {
      await e.close();
    }
  });

  it('a key without flex access: one call, the job disables itself', async () => {
    const stack = await useStack({ accounts: [{ ...keys, balances: { USDT: '1' }, flexEnabled: false }] });
    const dir = tempDir();
    const e = engineFor(dir, stack.sim, stack.clock, { keys });
    try {
      const job = new FlexJob({ store: e.store, gateway: e.gateway, clock: stack.clock, logger: silentLogger() });
      expect(await job.runOnce()).toMatchObject({ status: 'disabled' });
      expect(await job.runOnce()).toMatchObject({ status: 'disabled', pages: 0 });
    } finally {
      await e.close();
    }
  });
});

describe('credit line over HTTP', () => {
  it('records the loan; LTV near the margin call switches to REDUCE_ONLY; no loan is normal', async () => {
    const stack = await useStack({
      accounts: [
        { ...keys, balances: { USDT: '1' }, loan: { asset: 'USDT', amount: '30000', collateralAsset: 'BTC', collateralAmount: '1', marginCallLtv: '0.7' } },
        { apiKey: 'noloan', apiSecret: 'noloansecret', balances: { USDT: '1' } },
      ],
    });
    const { sim, clock } = stack;
    const dir = tempDir();
    const e = engineFor(dir, sim, clock, { keys });
    try {
      const ts = new TradingStateController(e.store, clock, silentLogger());
      const job = new CreditJob({ store: e.store, gateway: e.gateway, clock, logger: silentLogger(), tradingState: ts });
      const r1 = await job.runOnce();
      expect(r1).toMatchObject({ active: true, action: 'none' }); // 30000 / 60000 = 0.5 < 0.56
      expect(e.store.credit.latest()?.amount?.toFixed()).toBe('30000');
      sim.setPrice('BTC_USDT', '52000'); // LTV 0.577 ≥ 0.8 × 0.7
      expect(await job.runOnce()).toMatchObject({ action: 'reduce_only' });
      expect(ts.get()).toBe('REDUCE_ONLY');
      sim.setPrice('BTC_USDT', '70000'); // 0.43 < 0.49
      expect(await job.runOnce()).toMatchObject({ action: 'resumed' });
      expect(ts.get()).toBe('ACTIVE');
    } finally {
      await e.close();
    }
    const dir2 = tempDir();
    const e2 = engineFor(dir2, sim, clock, { keys: { apiKey: 'noloan', apiSecret: 'noloansecret' } });
    try {
      const ts = new TradingStateController(e2.store, clock, silentLogger());
      expect(await new CreditJob({ store: e2.store, gateway: e2.gateway, clock, logger: silentLogger(), tradingState: ts }).runOnce()).toEqual({ active: false });
      expect(e2.store.credit.latest()?.active).toBe(false);
    } finally {
      await e2.close();
    }
  });
});
