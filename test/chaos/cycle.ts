/**
 * Runs one cycle: the price plan against the venue while the fault actions of the plan (a
 * daemon restart, an OCO cancelled at the venue) happen at their offsets, concurrently.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { ChaosDaemon } from './daemon.js';
import { cyclePrices, type CyclePlan } from './scenario.js';
import type { VenueAdmin } from './venue.js';

export interface ChaosCounters {
  cycles: number;
  kills: number;
  startupKills: number;
  gracefulRestarts: number;
  ocoCancels: number;
}

export interface CycleDeps {
  admin: VenueAdmin;
  daemon: ChaosDaemon;
  counters: ChaosCounters;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function setBtc(admin: VenueAdmin, price: Decimal): Promise<void> {
  const p = price.toDecimalPlaces(2).toFixed();
  await admin.setPrices({ BTC_USDT: p, BTC_PERP: p });
}

async function movePrices(d: CycleDeps, plan: CyclePlan): Promise<void> {
  const { signal, outcome } = cyclePrices(plan, new Decimal(await d.admin.price('BTC_PERP')));
  await setBtc(d.admin, signal);
  await sleep(plan.signalHoldMs);
  await setBtc(d.admin, outcome);
  await sleep(plan.outcomeHoldMs);
}

async function restart(d: CycleDeps, r: NonNullable<CyclePlan['restart']>): Promise<void> {
  await sleep(r.atMs);
  await d.daemon.end(r.how);
  if (r.how === 'kill') d.counters.kills++;
  else d.counters.gracefulRestarts++;
  if (r.startupKillMs !== null) {
    await d.daemon.spawn();
    await sleep(r.startupKillMs);
    await d.daemon.end('kill');
    d.counters.startupKills++;
  }
  await d.daemon.start();
}

async function cancelOco(d: CycleDeps, c: NonNullable<CyclePlan['cancelOco']>): Promise<void> {
  await sleep(c.atMs);
  const active = (await d.admin.brackets()).filter((b) => b.ocoActive && b.ocoId !== null);
  const victim = active[Math.floor(c.pick * active.length)];
  if (victim?.ocoId == null) return;
  try {
    await d.admin.cancelOco(victim.ocoId);
    d.counters.ocoCancels++;
  } catch {
    // A leg executed in between: nothing left to cancel, which is fine.
  }
}

export async function runCycle(d: CycleDeps, plan: CyclePlan): Promise<void> {
  // A daemon that died on its own is already recorded as a failed run; trade on with a new one.
  if (!d.daemon.running) await d.daemon.start();
  await Promise.all([
    movePrices(d, plan),
    plan.restart === null ? undefined : restart(d, plan.restart),
    plan.cancelOco === null ? undefined : cancelOco(d, plan.cancelOco),
  ]);
  d.counters.cycles++;
}
