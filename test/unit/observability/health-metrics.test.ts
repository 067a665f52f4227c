import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthReport, type HealthServer } from '../../../src/observability/health.js';
import { BotMetrics } from '../../../src/observability/metrics.js';
import { Prng } from '../../../src/simulator/prng.js';

function report(over: Partial<HealthReport> = {}): HealthReport {
  return {
    status: 'ok',
    reasons: [],
    mode: 'paper',
    tradingState: 'ACTIVE',
    reconcile: { ok: true, lastSuccessMs: 1, lastError: null },
    jobs: {},
    unknownOrders: 0,
    quarantined: [],
    clockSkewMs: null,
    nowMs: 1,
    ...over,
  };
}

let server: HealthServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('metrics', () => {
  it('exposes counters and scrape-time gauges on its own registry', async () => {
    const m = new BotMetrics();
    m.setCollector(() => ({ ordersByState: { OPEN: 3, UNKNOWN: 2 }, rateLimitRemaining: { orders: 95 } }));
    m.refusal('g1', 'MAX_POSITION');
    m.refusal('g1', 'MAX_POSITION');
    m.error('STRATEGY_THREW');
    m.fill('g1');
    m.jobRun('reconcile', 'ran', 5_000);
    m.jobSkipped('strategy:g1');
    m.setTradingState('REDUCE_ONLY');
    m.setReconcile(true, 4_000);
    m.setQuarantined('bad', true);
    m.setClockSkew(-2_500);
    const text = await m.text();
    expect(text).toContain('bot_risk_refusals_total{strategy="g1",code="MAX_POSITION"} 2');
    expect(text).toContain('bot_errors_total{code="STRATEGY_THREW"} 1');
    expect(text).toContain('bot_fills_total{strategy="g1"} 1');
    expect(text).toContain('bot_orders{state="OPEN"} 3');
    expect(text).toContain('bot_orders_unknown 2');
    expect(text).toContain('bot_rate_limit_remaining{pool="orders"} 95');
    expect(text).toContain('bot_job_last_run_timestamp_seconds{job="reconcile",outcome="ran"} 5');
    expect(text).toContain('bot_job_skipped_total{job="strategy:g1"} 1');
    expect(text).toContain('bot_trading_state{state="REDUCE_ONLY"} 1');
    expect(text).toContain('bot_trading_state{state="ACTIVE"} 0');
    expect(text).toContain('bot_reconcile_ok 1');
    expect(text).toContain('bot_strategy_quarantined{strategy="bad"} 1');
    expect(text).toContain('bot_clock_skew_seconds -2.5');
  });

  it('job runs: counted per job and outcome, the last end per outcome, the same across scrapes', async () => {
    const m = new BotMetrics();
    m.jobRun('reconcile', 'ran', 5_000);
    m.jobRun('reconcile', 'ran', 6_000);
    m.jobRun('reconcile', 'failed', 7_000);
    m.jobRun('strategy:g1', 'paused', 8_000);
    const first = await m.text();
    expect(first).toContain('bot_job_runs_total{job="reconcile",outcome="ran"} 2');
    expect(first).toContain('bot_job_runs_total{job="reconcile",outcome="failed"} 1');
    expect(first).toContain('bot_job_runs_total{job="strategy:g1",outcome="paused"} 1');
    expect(first).toContain('bot_job_last_run_timestamp_seconds{job="reconcile",outcome="ran"} 6');
    expect(first).toContain('bot_job_last_run_timestamp_seconds{job="reconcile",outcome="failed"} 7');
    expect(await m.text()).toBe(first);
    m.jobRun('reconcile', 'ran', 9_000);
    const later = await m.text();
    expect(later).toContain('bot_job_runs_total{job="reconcile",outcome="ran"} 3');
    expect(later).toContain('bot_job_last_run_timestamp_seconds{job="reconcile",outcome="ran"} 9');
  });

  it('reconcile: 0 before the first pass, the last success kept through a failed pass', async () => {
    const m = new BotMetrics();
    expect(await m.text()).toContain('bot_reconcile_ok 0');
    m.setReconcile(true, 4_000);
    m.setClockSkew(1_000);
    m.setReconcile(false, null);
    const text = await m.text();
    expect(text).toContain('bot_reconcile_ok 0');
    expect(text).toContain('bot_reconcile_last_success_timestamp_seconds 4');
    expect(text).toContain('bot_clock_skew_seconds 1');
  });

  it('exposes the request queue per pool: budget, used, queued, paused, refused; store and second-signer state', async () => {
    const m = new BotMetrics();
    m.setCollector(() => ({
      ordersByState: {},
      rateLimits: {
        orders: { limit: 8000, used: 120, queued: 7, paused: false, refused: 0 },
        mainBalance: { limit: 800, used: 800, queued: 40, paused: true, refused: 3 },
      },
      requestQueue: { storeUp: false, nonceCollisionSuspected: true, nonceRefusalsUnexplained: 4 },
    }));
    const text = await m.text();
    expect(text).toContain('bot_rate_limit_budget{pool="orders"} 8000');
    expect(text).toContain('bot_rate_limit_used{pool="orders"} 120');
    expect(text).toContain('bot_rate_limit_queued{pool="mainBalance"} 40');
    expect(text).toContain('bot_rate_limit_paused{pool="mainBalance"} 1');
    expect(text).toContain('bot_rate_limit_paused{pool="orders"} 0');
    expect(text).toContain('bot_rate_limit_refused_total{pool="mainBalance"} 3');
    expect(text).toContain('bot_rate_limit_remaining{pool="orders"} 7880');
    expect(text).toContain('bot_rate_limit_remaining{pool="mainBalance"} 0');
    expect(text).toContain('bot_rate_limit_store_up 0');
    expect(text).toContain('bot_nonce_collision_suspected 1');
    expect(text).toContain('bot_nonce_refusals_unexplained_total 4');
  });

  it('fills and placements: the same exposition as plain prom-client counters, across scrapes', async () => {
    const m = new BotMetrics();
    const ref = new Registry();
    const fills = new Counter({ name: 'bot_fills_total', help: 'Fills applied, by owning strategy', labelNames: ['strategy'], registers: [ref] });
    const placements = new Counter({ name: 'bot_order_placements_total', help: 'Order placement outcomes', labelNames: ['strategy', 'status'], registers: [ref] });
    const ours = (text: string): string => text.split('\n').filter((l) => /bot_(fills|order_placements)_total/.test(l)).join('\n');
    const rng = new Prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
    for (let scrape = 0; scrape < 4; scrape++) {
      for (let i = 0; i < 200; i++) {
        if (rng.next() < 0.5) {
          const strategy = pick(['g1', 'trend.1', 'a_b', null]);
          m.fill(strategy);
          fills.inc({ strategy: strategy ?? 'external' });
        } else {
          const [strategy, status] = [pick(['g1', 'trend.1', 'a_b']), pick(['placed', 'rejected', 'unknown'])];
          m.placed(strategy, status);
          placements.inc({ strategy, status });
        }
      }
      const text = ours(await m.text());
      expect(text).toContain('bot_fills_total{strategy="external"}');
      expect(text).toBe(ours(await ref.metrics()));
    }
  });

  it('two instances do not share counters', async () => {
    const a = new BotMetrics();
    const b = new BotMetrics();
    a.error('X');
    expect(await b.text()).not.toContain('code="X"');
  });

  it('a failing collector empties the gauges instead of breaking the scrape', async () => {
    const m = new BotMetrics();
    m.setCollector(() => {
      throw new Error('store closed');
    });
    expect(await m.text()).toContain('bot_orders_unknown 0');
  });
});

describe('health server', () => {
  it('serves /healthz (200 when ok, 503 otherwise) and /metrics on 127.0.0.1', async () => {
    let current = report();
    const m = new BotMetrics();
    server = await startHealthServer({ port: 0, health: () => current, metrics: () => m.text(), metricsContentType: m.contentType });
    const base = `http://127.0.0.1:${server.port}`;
    const ok = await fetch(`${base}/healthz`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as HealthReport).tradingState).toBe('ACTIVE');
    current = report({ status: 'degraded' });
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('bot_orders_unknown');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
  });
});
