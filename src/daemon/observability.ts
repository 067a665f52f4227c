/**
 * What the daemon shows about itself: the `/healthz` report, the values `/metrics` collects at
 * scrape time, and the server for both (127.0.0.1 only).
 */
import type { Console } from '../console/index.js';
import type { ApiClient } from '../exchange/client.js';
import type { Scheduler } from '../engine/scheduler.js';
import { requestQueueDegraded, startHealthServer, type HealthReport, type HealthServer } from '../observability/health.js';
import type { Base, Engine } from './engine.js';
import type { ReconcileJob } from './jobs.js';
import type { Runners } from './runners.js';

/** Where the daemon is in its life; `/healthz` is not ok outside `ok`. */
export type Phase = HealthReport['status'];

export interface HealthSources {
  client: ApiClient;
  engine: Engine;
  scheduler: Scheduler;
  reconcile: ReconcileJob;
  runners: Runners;
  phase: () => Phase;
  /** The dashboard and control API on the same server (null when off). */
  console?: Console | null;
}

function jobsReport(scheduler: Scheduler): HealthReport['jobs'] {
  const jobs: HealthReport['jobs'] = {};
  for (const name of scheduler.jobNames) {
    const last = scheduler.lastRun(name);
    jobs[name] = { lastRunMs: last?.endedMs ?? null, lastOutcome: last?.outcome ?? null, skipped: scheduler.skipped(name) };
  }
  return jobs;
}

export function healthReport(b: Base, s: HealthSources): HealthReport {
  const ts = s.engine.tradingState.get();
  const phase = s.phase();
  const requestQueue = s.client.requestQueueHealth();
  const degraded = ts === 'HALTED' || !s.reconcile.state.ok || requestQueueDegraded(requestQueue);
  return {
    status: phase !== 'ok' ? phase : degraded ? 'degraded' : 'ok',
    mode: b.config.mode,
    tradingState: ts,
    reconcile: s.reconcile.state,
    jobs: jobsReport(s.scheduler),
    unknownOrders: b.store.orders.countByState()['UNKNOWN'] ?? 0,
    quarantined: [...s.runners.values()].filter((r) => r.quarantined).map((r) => r.id),
    clockSkewMs: s.engine.gateway.clockSkewMs?.() ?? null,
    requestQueue,
    nowMs: b.clock.now(),
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
  const server = await startHealthServer({
    port: b.config.httpPort,
    health: () => healthReport(b, s),
    metrics: () => b.metrics.text(),
    metricsContentType: b.metrics.contentType,
    host: b.config.httpHost,
    ...(s.console == null ? {} : { admit: (req) => s.console?.http.mayRead(req) === true, routes: (req, res) => s.console?.http.handle(req, res) === true }),
  });
  b.logger.info({ host: b.config.httpHost, port: server.port, dashboard: `http://${b.config.httpHost}:${server.port}/` }, 'health, metrics and dashboard');
  return server;
}
