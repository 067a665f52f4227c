/**
 * One chaos run: the venue in this process, the built daemon in live mode against it, `cycles`
 * price cycles with the faults of the scenario, the final settlement, then every check over the
 * venue's ground truth and the bot's store.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal } from '../../src/core/decimal.js';
import { chaosBotConfig, DRAWDOWN_LIMIT_PCT, LIMITS, SIGNAL_INSTANCES } from './bot-config.js';
import { CHECKS } from './checks/index.js';
import { runCycle, type ChaosCounters } from './cycle.js';
import { ChaosDaemon } from './daemon.js';
import { storeEvidence, venueDeals, venueOrders, type Evidence } from './evidence.js';
import { figuresOf, type Figures } from './figures.js';
import { finalSettle } from './final-settle.js';
import type { ChaosOptions } from './options.js';
import { seededRng } from './rng.js';
import { planCycle } from './scenario.js';
import { EquitySampler, type EquitySample } from './true-equity.js';
import { startChaosVenue, VenueAdmin } from './venue.js';

export interface CheckResult {
  name: string;
  asserts: string;
  violations: string[];
}

export interface ChaosReport {
  options: ChaosOptions;
  figures: Figures;
  checks: CheckResult[];
  /** True when every check passed. */
  ok: boolean;
  /** What the checks judged (for tests that look closer). */
  evidence: Evidence;
}

/** Decimals as strings, for the kept venue.json. */
function truth(ev: Evidence): { orders: unknown[]; deals: unknown[] } {
  const plain = (o: object): Record<string, unknown> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v instanceof Decimal ? v.toFixed() : v]));
  return { orders: ev.venue.orders.map(plain), deals: ev.venue.deals.map(plain) };
}

async function gather(admin: VenueAdmin, dataDir: string, daemon: ChaosDaemon, samples: EquitySample[], venueSettle: Evidence['venueSettle']): Promise<Evidence> {
  const truth = await admin.truth();
  return {
    venue: { orders: venueOrders(truth), deals: venueDeals(truth), brackets: await admin.brackets(), sums: truth.deals.byMarket },
    store: storeEvidence(dataDir),
    runs: daemon.runs,
    limits: LIMITS,
    signalInstances: SIGNAL_INSTANCES,
    equity: { samples, limitPct: DRAWDOWN_LIMIT_PCT },
    venueSettle,
  };
}

async function cycles(opts: ChaosOptions, admin: VenueAdmin, daemon: ChaosDaemon, counters: ChaosCounters): Promise<void> {
  const rng = seededRng(opts.seed);
  const start = new Decimal(await admin.price('BTC_PERP'));
  const began = Date.now();
  for (let i = 0; i < opts.cycles; i++) {
    if (opts.maxRunMs !== undefined && Date.now() - began > opts.maxRunMs) break;
    const plan = planCycle(rng, opts.faults, new Decimal(await admin.price('BTC_PERP')), start);
    await runCycle({ admin, daemon, counters }, plan);
  }
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const sim = await startChaosVenue(opts.seed, opts.faults);
  // Its own directory, not the tests' temp-dir helper: this runner also runs outside vitest and --keep keeps it.
  const work = mkdtempSync(path.join(tmpdir(), 'v4bot-chaos-'));
  const dataDir = path.join(work, 'data');
  const env = {
    BOT_MODE: 'live',
    API_BASE_URL: sim.baseUrl,
    API_KEY: sim.defaultAccount.apiKey,
    API_SECRET: sim.defaultAccount.apiSecret,
    BOT_DATA_DIR: dataDir,
    BOT_CONFIG: path.join(work, 'bot.json'),
  };
  const quiet = path.join(work, 'quiet.json');
  writeFileSync(env.BOT_CONFIG, JSON.stringify(chaosBotConfig({ tradingEnabled: true })));
  writeFileSync(quiet, JSON.stringify(chaosBotConfig({ tradingEnabled: false })));
  const daemon = new ChaosDaemon(env, work);
  const admin = new VenueAdmin(sim.baseUrl);
  const counters: ChaosCounters = { cycles: 0, kills: 0, startupKills: 0, gracefulRestarts: 0, ocoCancels: 0 };
  const sampler = new EquitySampler(admin);
  try {
    sampler.start();
    await daemon.start();
    await cycles(opts, admin, daemon, counters);
    const settled = await finalSettle(daemon, admin, quiet, opts.settleUnknownMs);
    const ev = await gather(admin, dataDir, daemon, await sampler.stop(), settled);
    const checks = CHECKS.map((c) => ({ name: c.name, asserts: c.asserts, violations: c.run(ev) }));
    const figures: Figures = { seed: opts.seed, faults: opts.faults ? 'on' : 'off', ...figuresOf(ev, counters) };
    if (opts.keep) {
      // The venue's side of the evidence, for a closer look next to the store (no key in it).
      writeFileSync(path.join(work, 'venue.json'), JSON.stringify({ orders: truth(ev).orders, deals: truth(ev).deals, brackets: ev.venue.brackets }, null, 1));
      figures['kept in'] = work;
    }
    return { options: opts, figures, checks, ok: checks.every((c) => c.violations.length === 0), evidence: ev };
  } finally {
    await sampler.stop();
    await daemon.end('kill');
    await sim.close();
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}
