/**
 * The daemon's notification wiring with a real store, trading state and runner, and a local fake
 * webhook: the runner reports a refusal's detail and a quarantine's reason; refusals are rolled
 * up, quarantines, trading-state changes, committed fills and the daily summary reach the
 * webhook; `close` leaves no timer behind. Without notification keys nothing is wired.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Base, Engine } from '../../../src/daemon/engine.js';
import { wireNotifications } from '../../../src/daemon/notifications.js';
import type { Scheduler } from '../../../src/engine/scheduler.js';
import type { FillListener } from '../../../src/engine/fill-applier.js';
import { StrategyRunner, type OrderPort, type RunnerEvents } from '../../../src/engine/strategy-runner.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { BotMetrics } from '../../../src/observability/metrics.js';
import { openStore } from '../../../src/store/index.js';
import type { LoadedStrategy } from '../../../src/strategy-api/host.js';
import { defineStrategy, intents, type HookResult } from '../../../src/strategy-api/index.js';
import { MemoryState, price, snapshot } from '../../support/daemon-ctx.js';
import { eventually } from '../../support/eventually.js';
import { startReceivers, type Receivers } from '../../support/notify-receivers.js';

const d = (s: string): Decimal => new Decimal(s);
const T0 = Date.UTC(2026, 10, 22, 23, 0);

let rx: Receivers;
beforeEach(async () => {
  rx = await startReceivers();
});
afterEach(async () => {
  await rx.close();
});

function base(env: Record<string, string>): Base {
  const clock = new ManualClock(T0);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'v4bot-notify-wiring-'));
  const config = loadConfig({ cwd: process.cwd(), env: { ENV_FILE: 'config/paper.env', BOT_DATA_DIR: dataDir, ...env } });
  return { config, clock, logger: silentLogger(), store: openStore({ dataDir, clock, logger: silentLogger() }), metrics: new BotMetrics() };
}

function engineOf(b: Base): { engine: Engine; fill: (l: Parameters<FillListener>[0]) => void } {
  const listeners: FillListener[] = [];
  const tradingState = new TradingStateController(b.store, b.clock, b.logger);
  const engine = { reconciler: { onFill: (l: FillListener) => void listeners.push(l) }, tradingState } as unknown as Engine;
  return { engine, fill: (n) => listeners.forEach((l) => l(n)) };
}

const scheduler = { enqueue: async (_lane: string, _label: string, fn: () => Promise<void>) => (await fn(), 'ran') } as unknown as Scheduler;

function runner(clock: ManualClock, events: Partial<RunnerEvents>, onTick: () => HookResult): StrategyRunner {
  const strategy: LoadedStrategy = { id: 'grid', module: 'test', params: {}, schedule: '* * * * * *', definition: defineStrategy({ name: 'test', params: z.object({}), schedule: '* * * * * *', onTick }) as NonNullable<LoadedStrategy['definition']> };
  const noop = (): void => undefined;
  return new StrategyRunner({
    strategy,
    clock,
    logger: silentLogger(),
    orders: {} as OrderPort,
    snapshot: async () => snapshot({ nowMs: clock.now(), prices: { BTC_USDT: price('BTC_USDT', '100') } }),
    risk: () => ({
      tradingState: 'ACTIVE',
      markets: { BTC_USDT: { tick: d('0.01'), step: d('0.001'), minAmount: d('0.001'), minTotalQuote: d('5'), maxPositionBase: d('10'), maxOpenOrders: 50 } },
      limits: { maxNotionalPerOrderQuote: d('10000'), maxDrawdownPct: d('10') },
      exposure: {},
      strategy: { id: 'grid', quarantined: false, budgetQuote: d('100000'), committedQuote: d('0'), positionBase: {} },
      equity: null,
    }),
    onDrawdown: noop,
    state: new MemoryState(),
    accepting: () => true,
    events: { strategyError: noop, engineError: noop, placed: noop, refusal: noop, quarantined: noop, ...events },
    deadlineMs: 1_000,
    errorBudget: 2,
    errorWindowMs: 60_000,
  });
}

const types = (): string[] => rx.at('/hook').map((r) => String(r.json['type']));

/** Every request the receiver saw was answered and counted as sent: only then may the ManualClock jump (past the attempt deadline). */
async function settled(b: Base): Promise<void> {
  const sent = async (): Promise<number> => (await b.metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'bot_notifications_sent_total')?.values[0]?.value ?? 0;
  await eventually(async () => (await sent()) === rx.at('/hook').length, 'deliveries settled');
}

describe('wireNotifications', () => {
  it('routes refusals (rolled up), quarantines, state changes, fills and the daily summary to the webhook', async () => {
    const b = base({ NOTIFY_WEBHOOK_URL: `${rx.url}/hook`, NOTIFY_DAILY_SUMMARY_UTC: '00:00', NOTIFY_REFUSAL_WINDOW_MIN: '5' });
    const clock = b.clock as ManualClock;
    const { engine, fill } = engineOf(b);
    const n = wireNotifications(b, engine, scheduler);

    const tooSmall = runner(clock, n.runnerEvents, () => [intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.0001', price: '99' }])]);
    await tooSmall.tick();
    await tooSmall.tick();
    await tooSmall.tick();
    const refusal = await eventually(() => rx.at('/hook')[0], 'the first refusal');
    expect(refusal.json).toMatchObject({ type: 'refusal', strategy: 'grid', code: 'AMOUNT_BELOW_MIN', suppressed: 0 });
    expect(String(refusal.json['detail'])).toMatch(/^limit buy BTC_USDT: /);

    const throwing = runner(clock, n.runnerEvents, () => {
      throw new Error('boom in onTick');
    });
    await throwing.tick();
    await throwing.tick();
    const q = await eventually(() => rx.at('/hook').find((r) => r.json['type'] === 'quarantine'), 'the quarantine');
    expect(q.json).toMatchObject({ strategy: 'grid' });
    expect(String(q.json['reason'])).toContain('boom in onTick');

    engine.tradingState.set('REDUCE_ONLY', 'credit: LTV 0.81');
    fill({ strategyId: 'grid', fill: { dealId: 7, orderId: 7, clientOrderId: 'grid-1', market: 'BTC_USDT', side: 'sell', role: 'taker', timeMs: T0, amount: d('0.5'), price: d('100.25'), quote: d('50.125'), fee: d('0.05'), feeAsset: 'USDT', strategyId: 'grid', ownerClientOrderId: 'grid-1' } });
    await eventually(() => types().includes('fill') && types().includes('trading_state'), 'state change and fill');
    expect(rx.at('/hook').find((r) => r.json['type'] === 'fill')?.json).toMatchObject({ price: '100.25', amount: '0.5', fee: '0.05', clientOrderId: 'grid-1' });

    // 5 min after the first refusal: the roll-up of the other two. The clock stops there while
    // the request is in flight (a jump past the attempt deadline would abort it).
    await settled(b);
    await clock.advanceAsync(5 * 60_000, 60_000);
    await eventually(() => rx.at('/hook').filter((r) => r.json['type'] === 'refusal').length === 2, 'the roll-up');
    expect(rx.at('/hook').filter((r) => r.json['type'] === 'refusal').map((r) => r.json['suppressed'])).toEqual([0, 2]);
    // 00:00 UTC: the summary of the day that ended.
    await settled(b);
    await clock.advanceAsync(55 * 60_000, 60_000);
    await eventually(() => types().includes('daily_summary'), 'the daily summary');
    const summary = rx.at('/hook').find((r) => r.json['type'] === 'daily_summary');
    expect(summary?.json).toMatchObject({ day: '2026-11-22', tradingState: 'REDUCE_ONLY', time: '2026-11-23T00:00:00.000Z', fills: 0, openOrders: 0 });

    await n.close();
    expect(clock.pendingCount).toBe(0);
    b.store.close();
  });

  it('wires nothing without notification keys', async () => {
    const b = base({});
    const { engine } = engineOf(b);
    const n = wireNotifications(b, engine, scheduler);
    expect(n.runnerEvents).toEqual({});
    engine.tradingState.set('HALTED', 'x');
    await n.close();
    expect((b.clock as ManualClock).pendingCount).toBe(0);
    expect(rx.requests).toEqual([]);
    b.store.close();
  });
});
