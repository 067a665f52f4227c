/**
 * The balance audit against the simulator over HTTP, with the real engine parts and a real store
 * (one ManualClock for venue and engine). With a zero tolerance, the bot's own trading (taker and
 * maker fills, fees, resting orders, cancels), flex earnings and a flex close are explained to the
 * last decimal; a trade by another client on the same key is reported with its exact amounts; an
 * order in flight makes the audit wait instead of alarm; a restart continues the window.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock, type ManualClock } from '../../../src/core/clock.js';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { BalanceAudit, BOOKS_UNEXPLAINED, type AuditResult } from '../../../src/engine/balance-audit.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { FlexJob } from '../../../src/engine/flex-job.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { liveHoldRules } from '../../../src/daemon/hold-rules.js';
import { createApiClient, type ApiClient } from '../../../src/exchange/api-client.js';
import { NonceError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { SimulatorHandle } from '../../../src/simulator/index.js';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, startStack, type LiveEngine, type Stack } from '../../support/engine-stack.js';

let stack: Stack | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
  await stack?.close();
  stack = undefined;
});

const d = (s: string): Decimal => new Decimal(s);
const PLAN = '0b0c1f4e-0000-4000-8000-00000000f1e0';

function auditFor(e: LiveEngine, clock: ManualClock, fraction = '0'): BalanceAudit {
  const logger = silentLogger();
  const { store, gateway, reconciler } = e;
  const tradingState = new TradingStateController(store, clock, logger);
  return new BalanceAudit({
    ...{ store, gateway, clock, logger, reconciler },
    flexJob: new FlexJob({ store, gateway, clock, logger }),
    creditJob: new CreditJob({ store, gateway, clock, logger, tradingState }),
    holdRules: liveHoldRules('USDT'),
    tolerance: { fraction: d(fraction), byAsset: {} },
    settleAttempts: 3,
    // The ManualClock does not move by itself: the looks follow each other at once.
    settlePauseMs: 0,
  });
}

function open(sim: SimulatorHandle, clock: ManualClock): { e: LiveEngine; audit: BalanceAudit } {
  const dir = tempDir();
  const e = engineFor(dir, sim, clock);
  cleanups.push(() => e.close());
  return { e, audit: auditFor(e, clock) };
}

/**
 * A call by another program on the same API key. Its client takes its nonces from the system
 * clock, as a separate program would; the engine's client may be a few ms ahead of that clock after
 * a burst (each nonce exceeds the last), so the venue may refuse the other program's nonce. A refused
 * nonce means the request was not applied (docs/failure-modes.md § 6), so the other program tries again
 * once the clock has moved, as a real one would.
 */
async function asOtherProgram<T>(sim: SimulatorHandle, call: (client: ApiClient) => Promise<T>): Promise<T> {
  const other = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(other);
      } catch (err) {
        if (!(err instanceof NonceError) || attempt >= 20) throw err;
        const until = Date.now() + 5;
        await eventually(() => Date.now() > until, 'the system clock to move');
      }
    }
  } finally {
    await other.close();
  }
}

/** Another program on the same API key: a taker buy of `amount` BTC at 1 % above the price. */
async function externalBuy(sim: SimulatorHandle, amount: string): Promise<void> {
  const price = d(sim.prices().prices['BTC_USDT'] as string).mul('1.01').toDecimalPlaces(2);
  const [r] = await asOtherProgram(sim, (other) => other.bulkLimitOrders([{ market: 'BTC_USDT', side: 'buy', amount: d(amount), price }]));
  expect(r?.status).toBe('placed');
}

const verdicts = (r: AuditResult): Record<string, string> => Object.fromEntries(r.assets.map((a) => [a.asset, a.verdict]));

describe('balance audit over HTTP', () => {
  it('explains the bot\'s own trading, flex earnings and a flex close exactly, then reports another client\'s trade with its amounts', async () => {
    stack = await startStack({ defaultFlex: [{ planId: PLAN, currency: 'USDT', amount: '5000', dailyRate: '0.001' }] });
    const { sim, clock } = stack;
    const { e, audit } = open(sim, clock);
    expect((await audit.runOnce()).outcome).toBe('started');

    const price = d(sim.prices().prices['BTC_USDT'] as string);
    const at = (f: string): Decimal => price.mul(f).toDecimalPlaces(2);
    const placed = await e.orders.placeLimitOrders('grid', [
      { market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: at('1.01') }, // taker: fills at once
      { market: 'BTC_USDT', side: 'buy', amount: d('0.02'), price: at('0.995') }, // rests, filled by the move below
      { market: 'BTC_USDT', side: 'buy', amount: d('0.03'), price: at('0.9') }, // rests, cancelled
      { market: 'BTC_USDT', side: 'sell', amount: d('0.04'), price: at('1.2') }, // rests: holds BTC
    ]);
    expect(placed.every((p) => p.status === 'placed')).toBe(true);
    const clean1 = await audit.runOnce();
    expect(clean1.outcome).toBe('clean');

    sim.setPrice('BTC_USDT', at('0.99').toFixed());
    await e.orders.cancelOrder('grid', placed[2]?.clientOrderId ?? '');
    clock.advance(2 * 86_400_000); // two UTC midnights: flex earnings accrue
    const clean2 = await audit.runOnce();
    expect(clean2.outcome).toBe('clean');
    expect(e.store.fills.all().length).toBeGreaterThanOrEqual(2);
    expect(e.store.flex.all().filter((r) => r.actionType === 'DAILY_EARNING').length).toBe(2);
    expect((await e.orders.closeFlex('grid', { plan: PLAN })).status).toBe('done');
    const clean3 = await audit.runOnce();
    expect(clean3.outcome).toBe('clean');
    // The close paid the investment with its earnings into the main balance: a change the books explained.
    expect(d(clean3.assets.find((a) => a.asset === 'USDT')?.actual ?? '0').gt(5000)).toBe(true);
    expect(e.store.alerts.list(BOOKS_UNEXPLAINED)).toEqual([]);

    clock.advance(1_000);
    const before = sim.truth().balances;
    await externalBuy(sim, '0.015');
    const after = sim.truth().balances;
    const r = await audit.runOnce();
    expect(r.outcome).toBe('unexplained');
    expect(verdicts(r)).toMatchObject({ BTC: 'unexplained', USDT: 'unexplained' });
    const btc = r.assets.find((a) => a.asset === 'BTC');
    const usdt = r.assets.find((a) => a.asset === 'USDT');
    // Nothing of ours moved: the difference is the other client's trade to the last decimal.
    expect(btc).toMatchObject({ actual: '0.015', expected: '0', difference: '0.015', fromMs: clean3.atMs, toMs: r.atMs });
    const spent = d(after['USDT'] ?? '0').minus(before['USDT'] ?? '0');
    expect(usdt?.difference).toBe(spent.toFixed());
    expect(r.externalFills).toBe(1);
    const alerts = e.store.alerts.list(BOOKS_UNEXPLAINED);
    expect(alerts.map((a) => a.subject).sort()).toEqual(['BTC', 'USDT']);
    const text = alerts.find((a) => a.subject === 'BTC')?.detail ?? '';
    expect(text).toContain('main balance changed by +0.015, the books explain +0, difference +0.015');
    expect(text).toContain(`from ${new Date(clean3.atMs).toISOString()} to ${new Date(r.atMs).toISOString()}`);
    expect(text).toContain('1 fill(s) of orders this bot did not place');
    expect(text).toContain('a manual trade on the same API key, a deposit or withdrawal, a venue-side correction');
    // Reported once: the next window starts after it.
    expect((await audit.runOnce()).outcome).toBe('clean');
    expect(e.store.alerts.list(BOOKS_UNEXPLAINED)).toHaveLength(2);
  });

  it('an order whose placement outcome is unknown makes the audit wait instead of alarm (keeping the last judgement); once resolved, it is explained', async () => {
    stack = await startStack();
    const { sim, clock } = stack;
    const { e, audit } = open(sim, clock);
    await audit.runOnce();
    clock.advance(1_000);
    await externalBuy(sim, '0.001');
    expect((await audit.runOnce()).outcome).toBe('unexplained');
    // The venue applies the placement but the reply is lost: the order is UNKNOWN until resolved,
    // and the resolver's cancel probe fails before the venue applies it, so it stays UNKNOWN.
    sim.setFaults({ '/api/v4/order/bulk': { dropAfterApply: { rate: 1, mode: 'reset' } } });
    const price = d(sim.prices().prices['BTC_USDT'] as string);
    const [p] = await e.orders.placeLimitOrders('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: price.mul('0.99').toDecimalPlaces(2) }]);
    expect(p?.status).toBe('unknown');
    sim.setFaults({ '/api/v4/order/cancel': { error5xx: 1 } });
    const baselineMs = e.store.audit.baselineMs();
    // Its hold is in the balance but not in the journal: every look is unsure, the window carries over.
    const waiting = await audit.runOnce();
    expect(e.store.orders.get(p?.clientOrderId ?? '')?.state).toBe('UNKNOWN');
    expect(waiting.outcome).toBe('unsettled');
    expect(e.store.audit.baselineMs()).toBe(baselineMs);
    expect(e.store.alerts.list(BOOKS_UNEXPLAINED).map((a) => a.subject)).toEqual(['BTC', 'USDT']);
    // An audit that judged nothing leaves the last judgement (and /healthz) as it was, also after a restart.
    expect(audit.lastJudged()?.outcome).toBe('unexplained');
    expect(e.store.audit.latest()?.outcome).toBe('unsettled');
    expect(auditFor(e, clock).lastJudged()?.outcome).toBe('unexplained');
    sim.setFaults({});
    clock.advance(120_000); // past the resolver's grace period: its probe settles the order
    const settled = await audit.runOnce();
    expect(e.store.orders.get(p?.clientOrderId ?? '')?.state).not.toBe('UNKNOWN');
    expect(settled).toMatchObject({ outcome: 'clean', fromMs: baselineMs });
    expect(audit.lastJudged()?.outcome).toBe('clean');
    expect(e.store.alerts.list(BOOKS_UNEXPLAINED)).toHaveLength(2);
  });

  it('collateral: the settlement asset waits while our position is open and is explained exactly once it is flat; a position another client closed is reported', async () => {
    stack = await startStack();
    const { sim, clock } = stack;
    const { e, audit } = open(sim, clock);
    await audit.runOnce();
    const perp = (): Decimal => d(sim.prices().prices['BTC_PERP'] as string);
    const taker = async (side: 'buy' | 'sell'): Promise<void> => {
      const price = perp().mul(side === 'buy' ? '1.01' : '0.99').toDecimalPlaces(1);
      expect((await e.orders.placeCollateralOrder('sig', { market: 'BTC_PERP', side, amount: d('0.01'), price })).status).toBe('placed');
    };
    await taker('buy');
    const opened = await audit.runOnce();
    expect(verdicts(opened)).toMatchObject({ USDT: 'deferred', BTC: 'explained' });
    sim.setPrice('BTC_PERP', perp().mul('1.02').toDecimalPlaces(1).toFixed());
    await taker('sell');
    const closed = await audit.runOnce();
    // Margin, PnL and both fees over the whole stretch, to the last decimal.
    expect(closed.assets.find((a) => a.asset === 'USDT')).toMatchObject({ verdict: 'explained', difference: '0', fromMs: opened.assets[0]?.fromMs });
    expect(d(closed.assets.find((a) => a.asset === 'USDT')?.actual ?? '0').gt(0)).toBe(true);

    await taker('buy');
    expect(verdicts(await audit.runOnce())).toMatchObject({ USDT: 'deferred' });
    clock.advance(1_000);
    const price = perp().mul('0.99').toDecimalPlaces(1);
    await asOtherProgram(sim, (other) => other.collateralLimitOrder({ market: 'BTC_PERP', side: 'sell', amount: d('0.01'), price }));
    const r = await audit.runOnce();
    expect(verdicts(r)).toMatchObject({ USDT: 'unexplained' });
    expect(r.externalFills).toBe(1);
    expect(e.store.alerts.list(BOOKS_UNEXPLAINED).map((a) => a.subject)).toEqual(['USDT']);
  });

  it('a restart continues the window: a trade while the bot was down is reported by the first audit after it', async () => {
    stack = await startStack();
    const { sim, clock } = stack;
    const dir = tempDir();
    const first = engineFor(dir, sim, clock);
    const started = await auditFor(first, clock).runOnce();
    await first.close();
    await externalBuy(sim, '0.002');
    clock.advance(60_000);
    const second = engineFor(dir, sim, clock);
    cleanups.push(() => second.close());
    const r = await auditFor(second, clock).runOnce();
    expect(r.outcome).toBe('unexplained');
    expect(r.assets.find((a) => a.asset === 'BTC')).toMatchObject({ verdict: 'unexplained', difference: '0.002', fromMs: started.atMs });
    expect(second.store.audit.latest()?.outcome).toBe('unexplained');
  });

  it('differences within the tolerance are explained', async () => {
    stack = await startStack();
    const { sim, clock } = stack;
    const dir = tempDir();
    const e = engineFor(dir, sim, clock);
    cleanups.push(() => e.close());
    // 0.02 % of 1 BTC is 0.0002: a trade of 0.0001 BTC is within it, its ~6 USDT of 100000 too.
    const audit = auditFor(e, clock, '0.0002');
    await audit.runOnce();
    await externalBuy(sim, '0.0001');
    const r = await audit.runOnce();
    expect(r.outcome).toBe('clean');
    expect(d(r.assets.find((a) => a.asset === 'BTC')?.difference ?? '0').eq('0.0001')).toBe(true);
    expect(ZERO.eq(e.store.alerts.list(BOOKS_UNEXPLAINED).length)).toBe(true);
  });
});
