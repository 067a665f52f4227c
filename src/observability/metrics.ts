/**
 * Prometheus metrics on a private prom-client registry (never the global default, so tests and
 * two daemons in one process never share counters). Counters are pushed by the engine as things
 * happen; gauges of store-derived state (orders by state, UNKNOWN count, rate-limit budget) are
 * pulled at scrape time through a collector the composition root installs.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Registry } from 'prom-client';
import { registerRateLimitMetrics, type RateLimitCollected } from './rate-limit-metrics.js';

export type { RateLimitPoolState, RequestQueueState } from './rate-limit-metrics.js';

/** Scrape-time state, assembled by the composition root from the store and the client. */
export interface CollectedState extends RateLimitCollected {
  /** Order state → number of journaled orders in it. */
  ordersByState: Record<string, number>;
}

export const TRADING_STATES = ['ACTIVE', 'REDUCE_ONLY', 'HALTED'] as const;

/** One job's runs with one outcome, and the end of the last of them (clock time, seconds). */
interface JobTally {
  job: string;
  outcome: string;
  runs: number;
  lastRunS: number;
}

/** A gauge without labels whose value is read at scrape time. */
function scalarGauge(registry: Registry, name: string, help: string, value: () => number): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(value());
    },
  });
}

/** The job metrics, read from the tallies at scrape time (in the order the tallies first appeared). */
function registerJobTallies(registry: Registry, tallies: ReadonlyMap<string, JobTally>): [Gauge, Counter] {
  const last = new Gauge({
    name: 'bot_job_last_run_timestamp_seconds',
    help: 'End of the last run of each job (clock time)',
    labelNames: ['job', 'outcome'],
    registers: [registry],
    collect() {
      for (const t of tallies.values()) this.set({ job: t.job, outcome: t.outcome }, t.lastRunS);
    },
  });
  const runs = new Counter({
    name: 'bot_job_runs_total',
    help: 'Job runs by outcome',
    labelNames: ['job', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const t of tallies.values()) this.inc({ job: t.job, outcome: t.outcome }, t.runs);
    },
  });
  return [last, runs];
}

/**
 * A counter whose label sets are counted here and handed to prom-client at scrape time, in the
 * order they first appeared (prom-client's own order): a labelled prom-client `inc` hashes its
 * labels and allocates on every call, and fills and placements count one per event.
 */
class TalliedCounter {
  private readonly tallies = new Map<string, { labels: Record<string, string>; n: number }>();

  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    const tallies = this.tallies;
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const t of tallies.values()) this.inc(t.labels, t.n);
      },
    });
  }

  /** Counts one for the label set `key` names; `labels` makes that set the first time. */
  inc(key: string, labels: () => Record<string, string>): void {
    const t = this.tallies.get(key);
    if (t === undefined) this.tallies.set(key, { labels: labels(), n: 1 });
    else t.n++;
  }
}

export class BotMetrics {
  readonly registry = new Registry();
  private collector: (() => CollectedState) | null = null;
  private loop: IntervalHistogram | null = null;

  /**
   * Job runs by job and outcome, counted here and handed to prom-client at scrape time: every job
   * fire counts one, and a labelled prom-client call hashes its labels and allocates on every call.
   */
  private readonly jobTallies = new Map<string, JobTally>();
  // Registered here, where the pushed job metrics were, so that a scrape lists them in the same order.
  private readonly jobMetrics = registerJobTallies(this.registry, this.jobTallies);
  private readonly jobSkips = new Counter({ name: 'bot_job_skipped_total', help: 'Ticks skipped because the previous run was still going', labelNames: ['job'], registers: [this.registry] });
  private readonly refusals = new Counter({ name: 'bot_risk_refusals_total', help: 'Orders and actions refused by the risk gate', labelNames: ['strategy', 'code'], registers: [this.registry] });
  private readonly errors = new Counter({ name: 'bot_errors_total', help: 'Errors by stable code', labelNames: ['code'], registers: [this.registry] });
  private readonly fills = new TalliedCounter(this.registry, 'bot_fills_total', 'Fills applied, by owning strategy', ['strategy']);
  private readonly placements = new TalliedCounter(this.registry, 'bot_order_placements_total', 'Order placement outcomes', ['strategy', 'status']);
  private readonly quarantined = new Gauge({ name: 'bot_strategy_quarantined', help: '1 when a strategy instance is quarantined', labelNames: ['strategy'], registers: [this.registry] });
  private readonly tradingState = new Gauge({ name: 'bot_trading_state', help: '1 for the current trading state', labelNames: ['state'], registers: [this.registry] });
  /** What every reconcile pass reports, kept here and read at scrape time (a gauge's `set` allocates per call). */
  private readonly reconcile = { ok: 0, lastSuccessS: 0, clockSkewS: 0 };
  private readonly reconcileGauges = [
    scalarGauge(this.registry, 'bot_reconcile_ok', '1 when the last reconciliation completed', () => this.reconcile.ok),
    scalarGauge(this.registry, 'bot_clock_skew_seconds', 'Venue clock minus local clock (reply Date header, 1 s resolution)', () => this.reconcile.clockSkewS),
    scalarGauge(this.registry, 'bot_reconcile_last_success_timestamp_seconds', 'Clock time of the last completed reconciliation', () => this.reconcile.lastSuccessS),
  ];

  constructor() {
    // prom-client calls `collect` with the gauge as `this`; reach the metrics object by closure.
    const read = (): CollectedState | null => this.collected();
    const loop = (): IntervalHistogram | null => this.loop;
    new Gauge({
      name: 'bot_orders',
      help: 'Journaled orders by state',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [state, n] of Object.entries(read()?.ordersByState ?? {})) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'bot_orders_unknown',
      help: 'Orders whose outcome is unresolved (UNKNOWN)',
      registers: [this.registry],
      collect() {
        this.set(read()?.ordersByState['UNKNOWN'] ?? 0);
      },
    });
    registerRateLimitMetrics(this.registry, read);
    new Gauge({
      name: 'bot_event_loop_lag_seconds',
      help: 'Event-loop delay since the last scrape (p99)',
      registers: [this.registry],
      collect() {
        const h = loop();
        if (h === null) return;
        this.set(Number.isFinite(h.percentile(99)) ? h.percentile(99) / 1e9 : 0);
        h.reset();
      },
    });
    for (const s of TRADING_STATES) this.tradingState.set({ state: s }, 0);
  }

  private collected(): CollectedState | null {
    try {
      return this.collector?.() ?? null;
    } catch {
      // A failing read must not break the scrape; the gauges just go empty.
      return null;
    }
  }

  /** Installs the scrape-time collector. */
  setCollector(fn: () => CollectedState): void {
    this.collector = fn;
  }

  /** Starts sampling event-loop delay (perf_hooks histogram, not a timer of ours). */
  startEventLoopMonitor(): void {
    if (this.loop !== null) return;
    this.loop = monitorEventLoopDelay({ resolution: 20 });
    this.loop.enable();
  }

  stopEventLoopMonitor(): void {
    this.loop?.disable();
    this.loop = null;
  }

  jobRun(job: string, outcome: 'ran' | 'failed' | 'paused', endedMs: number): void {
    const key = `${outcome} ${job}`;
    let t = this.jobTallies.get(key);
    if (t === undefined) this.jobTallies.set(key, (t = { job, outcome, runs: 0, lastRunS: 0 }));
    t.runs++;
    t.lastRunS = endedMs / 1000;
  }

  jobSkipped(job: string): void {
    this.jobSkips.inc({ job });
  }

  refusal(strategy: string, code: string): void {
    this.refusals.inc({ strategy, code });
  }

  error(code: string): void {
    this.errors.inc({ code });
  }

  fill(strategy: string | null): void {
    const label = strategy ?? 'external';
    this.fills.inc(label, () => ({ strategy: label }));
  }

  placed(strategy: string, status: string): void {
    // Strategy ids are [A-Za-z0-9_.] (config schema) and statuses a fixed set: no newline in either.
    this.placements.inc(`${strategy}\n${status}`, () => ({ strategy, status }));
  }

  setQuarantined(strategy: string, on: boolean): void {
    this.quarantined.set({ strategy }, on ? 1 : 0);
  }

  setTradingState(state: string): void {
    for (const s of TRADING_STATES) this.tradingState.set({ state: s }, s === state ? 1 : 0);
  }

  setReconcile(ok: boolean, atMs: number | null): void {
    this.reconcile.ok = ok ? 1 : 0;
    if (ok && atMs !== null) this.reconcile.lastSuccessS = atMs / 1000;
  }

  setClockSkew(ms: number): void {
    this.reconcile.clockSkewS = ms / 1000;
  }

  /** Prometheus text exposition. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
