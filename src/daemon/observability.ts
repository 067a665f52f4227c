/**
 * What the daemon shows about itself: the `/healthz` report, the values `/metrics` collects at
 * scrape time, and the server for both (127.0.0.1 only).
 */
import type { Console } from '../console/index.js';
import { createTask } from 'node-cron';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { ApiClient } from '../exchange/api-client.js';
import type { Scheduler } from '../engine/scheduler.js';
import { unexplainedOf } from '../engine/balance-audit.js';
import { degradedReasons, startHealthServer, type HealthInputs, type HealthReport, type HealthServer } from '../observability/health.js';
import { LimiterWatch } from '../observability/limiter-watch.js';
import type { Base, Engine } from './engine.js';
import type { ReconcileJob } from './jobs.js';
import type { Runners } from './runners.js';

/** Where the daemon is in its life; `/healthz` is not ok outside `ok`. */
export type Phase = HealthReport['status'];

/** How often the rate-limit pools are looked at for `rate_limit_blocked`. */
export const LIMITER_SAMPLE_MS = 1_000;

export interface HealthSources {
  client: ApiClient;
  engine: Engine;
  scheduler: Scheduler;
  reconcile: ReconcileJob;
  runners: Runners;
  phase: () => Phase;
  /** The dashboard and control API on the same server (null when off). */
  console?: Console | null;
  /** Rate-limit pool watch; sampled every LIMITER_SAMPLE_MS while the server runs. */
  limiter?: LimiterWatch;
}

/** cronIntervalMs results: a schedule's gap does not change, and /healthz asks on every probe. */
const intervals = new Map<string, number>();

/**
 * The longest gap between two runs of a cron expression over its next runs (a `*\/30` schedule
 * gives 30 000): the reconcile interval that staleness is measured in.
 */
export function cronIntervalMs(expression: string, runs = 12): number {
  const known = intervals.get(expression);
  if (known !== undefined) return known;
  const task = createTask(expression, () => undefined);
  try {
    const next = task.getNextRuns(runs).map((d) => d.getTime());
    let gap = 0;
    for (let i = 1; i < next.length; i++) gap = Math.max(gap, (next[i] as number) - (next[i - 1] as number));
    intervals.set(expression, gap);
    return gap;
  } finally {
    void task.destroy();
  }
}


function auditOf(engine: Engine): NonNullable<HealthInputs['audit']> | null {
  const last = engine.audit.lastJudged();
  if (last === null) return null;
  const signed = (d: string): string => (d.startsWith('-') ? d : `+${d}`);
  return { atMs: last.atMs, unexplained: unexplainedOf(last).map((a) => ({ asset: a.asset, difference: signed(a.difference) })) };
}

export function healthReport(b: Base, s: HealthSources): HealthReport {
  const ts = s.engine.tradingState;
  const phase = s.phase();
  const nowMs = b.clock.now();
  const requestQueue = s.client.requestQueueHealth();
  const quarantined = [...s.runners.values()].filter((r) => r.quarantined).map((r) => r.id);
  s.limiter?.observe(s.client.rateLimitStatus(), nowMs);
  const reasons = degradedReasons({
    nowMs,
    tradingState: ts.get(),
    tradingStateReason: ts.reason(),
    strategies: [...s.runners.keys()],
    quarantined,
    reconcile: s.reconcile.state,
    reconcileStaleAfterMs: b.config.health.reconcileStaleIntervals * cronIntervalMs(b.config.jobs.reconcileCron),
    blockedPools: s.limiter?.blocked() ?? {},
    limiterBlockedMaxMs: b.config.health.limiterBlockedMaxMs,
    requestQueue,
    audit: auditOf(s.engine),
  });
  return {
    status: phase !== 'ok' ? phase : reasons.length > 0 ? 'degraded' : 'ok',
    reasons: phase === 'ok' ? reasons : [],
    mode: b.config.mode,
    tradingState: ts.get(),
    reconcile: s.reconcile.state,
    jobs: s.scheduler.report(),
    unknownOrders: b.store.orders.countByState()['UNKNOWN'] ?? 0,
    quarantined,
    clockSkewMs: s.engine.gateway.clockSkewMs?.() ?? null,
    requestQueue,
    nowMs,
  };
}

/** Looks at the pools every LIMITER_SAMPLE_MS until stopped, so a blocked stretch is timed between health probes too. */
function sampleLimiter(clock: Clock, client: ApiClient, watch: LimiterWatch): () => void {
  let timer: TimerHandle | null = null;
  const tick = (): void => {
    watch.observe(client.rateLimitStatus(), clock.now());
    timer = clock.setTimeout(tick, LIMITER_SAMPLE_MS);
  };
  tick();
  return () => {
    if (timer !== null) clock.clearTimeout(timer);
  };
}

/** Registers the scrape-time metrics and starts `/healthz` + `/metrics` unless BOT_HTTP_PORT is 0. */
export async function startObservability(b: Base, s: HealthSources): Promise<HealthServer | null> {
  const { client } = s;
  b.metrics.setCollector(() => ({
    ordersByState: b.store.orders.countByState(),
    rateLimits: client.rateLimitStatus(),
    requestQueue: client.requestQueueHealth(),
  }));
  if (b.config.httpPort <= 0) return null;
  const limiter = s.limiter ?? new LimiterWatch();
  const server = await startHealthServer({
    port: b.config.httpPort,
    health: () => healthReport(b, { ...s, limiter }),
    metrics: () => b.metrics.text(),
    metricsContentType: b.metrics.contentType,
    host: b.config.httpHost,
    ...(s.console == null ? {} : { admit: (req) => s.console?.http.mayRead(req) === true, routes: (req, res) => s.console?.http.handle(req, res) === true }),
  });
  const stopSampling = sampleLimiter(b.clock, client, limiter);
  b.logger.info({ host: b.config.httpHost, port: server.port, dashboard: `http://${b.config.httpHost}:${server.port}/` }, 'health, metrics and dashboard');
  return {
    port: server.port,
    close: async () => {
      stopSampling();
      await server.close();
    },
  };
}
