/**
 * Wires the notifier (src/notify/) to the engine's own event points: committed fills
 * (`Reconciler.onFill`), trading-state changes (`TradingStateController.onChange`), the runner's
 * refusals and quarantines (`RunnerEvents`, handed to `buildRunners`), stored alerts
 * (`AlertWatch`) and the daily summary (a UTC timer whose work runs on the scheduler). Nothing
 * here waits on a delivery: the engine's calls return at once.
 */
import type { BotConfig, NotifyConfig } from '../config/index.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { RunnerEvents } from '../engine/strategy-runner.js';
import { NotifyMetrics } from '../observability/notify-metrics.js';
import { DailyTimer, Notifier, TelegramSink, WebhookSink, seededRandom, type NotifierOptions, type NotifyKind } from '../notify/index.js';
import type { Base, Engine } from './engine.js';
import { AlertWatch } from './notify-alerts.js';
import { dailySummary } from './notify-summary.js';

export interface Notifications {
  /** Refusals and quarantines, for `buildRunners`. */
  readonly runnerEvents: Partial<RunnerEvents>;
  /** Flushes briefly (bounded), then stops; undelivered notifications are lost (memory queue). */
  close(): Promise<void>;
}

/** How long a stopping daemon waits for queued notifications, ms of clock time. */
const FLUSH_AT_STOP_MS = 2_000;

function sinksOf(cfg: NotifyConfig, source: string): NotifierOptions['sinks'] {
  const sinks: NotifierOptions['sinks'][number][] = [];
  const w = cfg.webhook;
  if (w !== null) {
    const sink = new WebhookSink({ url: w.url.reveal(), secret: w.secret?.reveal() ?? null, source });
    sinks.push({ sink, events: new Set<NotifyKind>(w.events) });
  }
  const t = cfg.telegram;
  if (t !== null) {
    const sink = new TelegramSink({ baseUrl: t.baseUrl, botToken: t.botToken.reveal(), chatId: t.chatId, source });
    sinks.push({ sink, events: new Set<NotifyKind>(t.events) });
  }
  return sinks;
}

function subscribe(engine: Engine, notifier: Notifier): void {
  engine.reconciler.onFill(({ strategyId, fill: f }) => {
    notifier.notify({
      type: 'fill',
      atMs: f.timeMs,
      strategyId,
      market: f.market,
      side: f.side,
      role: f.role,
      price: f.price,
      amount: f.amount,
      quote: f.quote,
      fee: f.fee,
      feeAsset: f.feeAsset,
      dealId: f.dealId,
      clientOrderId: f.ownerClientOrderId ?? f.clientOrderId,
    });
  });
  engine.tradingState.onChange((c) => notifier.notify({ type: 'trading_state', atMs: c.atMs, from: c.from, to: c.to, reason: c.reason }));
}

const off: Notifications = { runnerEvents: {}, close: async () => undefined };

/** Builds the notifier when `NOTIFY_WEBHOOK_URL` or the Telegram keys are set; otherwise nothing. */
export function wireNotifications(b: Base, engine: Engine, scheduler: Scheduler): Notifications {
  const cfg: BotConfig['notify'] = b.config.notify;
  if (cfg === null) return off;
  const { clock, logger, store } = b;
  const log = logger.child({ part: 'notify' });
  const notifier = new Notifier({
    clock,
    logger: log,
    metrics: new NotifyMetrics(b.metrics.registry),
    random: seededRandom(clock.now()),
    sinks: sinksOf(cfg, `v4-bot ${b.config.mode}`),
    refusalWindowMs: cfg.refusalWindowMs,
  });
  subscribe(engine, notifier);
  const alerts = new AlertWatch({ store, clock, logger: log, notify: (e) => notifier.notify(e) });
  if (notifier.wants('alerts')) alerts.start();
  const daily = new DailyTimer(clock, cfg.dailySummaryUtc, (w) => {
    void scheduler.enqueue('notify', 'daily-summary', async () => notifier.notify(dailySummary(store, engine.tradingState.get(), w)));
  });
  if (notifier.wants('daily_summary')) daily.start();
  log.info({ sinks: notifier.sinks, dailySummaryUtc: cfg.dailySummaryUtc }, 'notifications on');
  return {
    runnerEvents: {
      refusal: (id, code, detail) => notifier.refused(id, code, detail),
      quarantined: (id, reason) => notifier.notify({ type: 'quarantine', atMs: clock.now(), strategyId: id, reason }),
    },
    close: async () => {
      alerts.stop();
      daily.stop();
      await notifier.close(FLUSH_AT_STOP_MS);
    },
  };
}
