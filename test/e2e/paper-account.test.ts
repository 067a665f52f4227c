/**
 * The persistent paper account with the built daemon (docs/paper-account.md):
 * - a graceful restart continues the account: the same open orders stay open (nothing closed as
 *   a ghost), the position keeps its brackets, balances and deals are the venue's, and the
 *   journal and the venue agree after the second run;
 * - a kill -9 while trading loses nothing the daemon acknowledged: every order the store knows
 *   by a venue id and every fill it recorded is in the venue file, whose balances add up from its
 *   deals; a restart then reconciles cleanly;
 * - a data dir with a journal and no venue file is refused with the way out;
 * - `--reset-paper` needs RESET on a terminal or `--yes` without one, archives the account with
 *   its journal, and is refused in live mode.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { PAPER_STATE_FILE } from '../../src/daemon/paper-venue.js';
import type { Truth } from '../../src/simulator/index.js';
import { DB_FILE, openStoreReadOnly } from '../../src/store/index.js';
import type { ChildRecord } from '../../src/model/conditional.js';
import type { FillRecord } from '../../src/model/fills.js';
import type { OrderRecord } from '../../src/model/journal.js';
import { daemonForTest, type DaemonProcess, distEntry, freePort, logLines, spawnDaemon, status, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';
import { paperVenueOf } from '../support/paper-file.js';

const WAIT = { timeoutMs: 45_000, everyMs: 250 };

const MARKETS = {
  BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 },
  BTC_PERP: { tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotalQuote: '5.05', maxPositionBase: '0.05', maxOpenOrders: 10 },
};
const GRID = { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } };
// Levels 5 % away: still resting at both stops of a short test, so open orders are there to survive.
const WIDE = { module: 'spot-grid', id: 'wide', budgetQuote: '1000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 1, spacingPct: '5', orderAmount: '0.002', postOnly: false } };
// Wide stop and target: the position keeps its bracket across the restart.
const SIGNAL = {
  module: 'collateral-signal',
  id: 'sig',
  budgetQuote: '2000',
  schedule: '* * * * * *',
  params: { market: 'BTC_PERP', amount: '0.001', lookbackTicks: 1, thresholdPct: '0.001', stopLossPct: '30', takeProfitPct: '30' },
};
const BALANCES = { USDT: '20000', BTC: '1' };

function config(strategies: unknown[]): unknown {
  return {
    markets: MARKETS,
    strategies,
    risk: { maxNotionalPerOrderQuote: '500' },
    jobs: { reconcileCron: '* * * * * *', equityCheckCron: '*/2 * * * * *' },
    paper: {
      seed: 7,
      balances: BALANCES,
      startPrices: { BTC_USDT: '60000', BTC_PERP: '60000' },
      volatility: '0.002',
      volumePerStep: '1',
      priceStepMs: 100,
      flexInvestments: [{ currency: 'USDT', amount: '1000', dailyRate: '0.001' }],
    },
    shutdown: { drainTimeoutMs: 5000 },
  };
}

interface Journal {
  orders: OrderRecord[];
  fills: FillRecord[];
  children: ChildRecord[];
  alerts: string[];
}

function journal(dataDir: string): Journal {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return { orders: store.orders.all(), fills: store.fills.all(), children: store.children.all(), alerts: store.alerts.list().map((a) => a.kind) };
  } finally {
    store.close();
  }
}

async function stop(p: DaemonProcess): Promise<void> {
  p.child.kill('SIGINT');
  expect((await p.exited).code, p.stderr()).toBe(0);
}

const LIVE = ['OPEN', 'PARTIALLY_FILLED'];
const VENUE_STATE: Record<string, string> = { NEW: 'OPEN', PARTIALLY_FILLED: 'PARTIALLY_FILLED', FILLED: 'FILLED', CANCELLED: 'CANCELLED' };

/** Every order the venue acknowledged (it has a venue id) is the venue's, with the same clientOrderId; every fill is one of its deals. */
function expectJournalInVenue(j: Journal, truth: Truth): void {
  const venueOrders = new Map(truth.orders.map((o) => [o.orderId, o]));
  const acked = j.orders.filter((o) => o.orderId !== null);
  expect(acked.length).toBeGreaterThan(0);
  for (const o of acked) expect(venueOrders.get(o.orderId as number)?.clientOrderId, o.clientOrderId).toBe(o.clientOrderId);
  const deals = new Map(truth.deals.list.map((d) => [d['id'] as number, d]));
  for (const f of j.fills) {
    const d = deals.get(f.dealId);
    expect(d, `deal ${f.dealId}`).toBeDefined();
    expect(new Decimal(d?.['amount'] as string).eq(f.amount) && new Decimal(d?.['price'] as string).eq(f.price)).toBe(true);
  }
}

/** The journal's state of each settled order is the venue's (live states compared as live). */
function expectStatesAgree(j: Journal, truth: Truth): void {
  const venueOrders = new Map(truth.orders.map((o) => [o.orderId, o]));
  for (const o of j.orders.filter((x) => x.orderId !== null && ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED'].includes(x.state))) {
    const v = VENUE_STATE[venueOrders.get(o.orderId as number)?.status ?? ''];
    if (o.state === 'FILLED' || o.state === 'CANCELLED') expect(v, o.clientOrderId).toBe(o.state);
    else expect(LIVE.includes(v ?? '') || v === 'FILLED', o.clientOrderId).toBe(true);
  }
}

/** Spot-only account: available + held of each asset = start balance + what its deals moved (matching.ts). */
function expectBalancesFromDeals(truth: Truth): void {
  let usdt = new Decimal(BALANCES.USDT);
  let btc = new Decimal(BALANCES.BTC);
  for (const d of truth.deals.list) {
    const amount = new Decimal(d['amount'] as string);
    const money = new Decimal(d['deal'] as string);
    const fee = new Decimal(d['fee'] as string);
    if (d['side'] === 'buy') [usdt, btc] = [usdt.minus(money).minus(fee), btc.plus(amount)];
    else [usdt, btc] = [usdt.plus(money).minus(fee), btc.minus(amount)];
  }
  const held = (a: string): Decimal => new Decimal(truth.balances[a] ?? '0').plus(truth.locked[a] ?? '0');
  expect(held('BTC').toFixed()).toBe(btc.toFixed());
  expect(held('USDT').toFixed()).toBe(usdt.toFixed());
}

describe('persistent paper account', () => {
  it('a graceful restart continues the account: open orders, deal history, a position with its brackets', async () => {
    const dataDir = tempDir();
    const env = { BOT_CONFIG: writeConfig(config([GRID, WIDE, SIGNAL])), BOT_DATA_DIR: dataDir };
    const first = daemonForTest(env);
    await eventually(() => {
      const j = journal(dataDir);
      const bracketLive = j.children.some((c) => c.state === 'active');
      const wideOpen = j.orders.filter((o) => o.strategyId === 'wide' && o.state === 'OPEN').length === 2;
      return j.fills.some((f) => f.strategyId === 'grid') && wideOpen && bracketLive;
    }, 'grid fills, the wide grid resting and a live bracket', { ...WAIT, timeoutMs: 90_000 });
    await stop(first);
    const j1 = journal(dataDir);
    const v1 = paperVenueOf(dataDir);
    expectJournalInVenue(j1, v1.truth);
    const open1 = j1.orders.filter((o) => o.state === 'OPEN' && o.orderId !== null);
    // Open in the journal: open on the venue, or filled there since the last reconciliation; never gone.
    const venueStatus = new Map(v1.truth.orders.map((x) => [x.orderId, x.status]));
    for (const o of open1) expect(['NEW', 'PARTIALLY_FILLED', 'FILLED'], o.clientOrderId).toContain(venueStatus.get(o.orderId as number));
    const wide1 = j1.orders.filter((o) => o.strategyId === 'wide' && o.state === 'OPEN');
    expect(wide1.length).toBe(2);
    for (const o of wide1) expect(venueStatus.get(o.orderId as number)).toBe('NEW');
    const position = v1.truth.positions.find((p) => p.market === 'BTC_PERP' && p.amount !== '0');
    expect(position).toBeDefined();
    const bracket = v1.brackets.find((b) => b.ocoActive && b.stopLoss?.status === 'NEW');
    expect(bracket).toBeDefined();

    const second = daemonForTest(env);
    await eventually(() => logLines(second.stdout()).some((l) => l['msg'] === 'daemon ready'), 'ready after the restart', WAIT);
    // The venue caught up with the time it was stopped (its market moved on), so orders may have filled meanwhile.
    const continued = logLines(second.stdout()).find((l) => l['msg'] === 'paper mode: paper account continued');
    expect(continued?.['deals']).toBeGreaterThanOrEqual(v1.truth.deals.count);
    await eventually(() => journal(dataDir).fills.length > j1.fills.length, 'more fills after the restart', WAIT);
    await stop(second);

    const j2 = journal(dataDir);
    const v2 = paperVenueOf(dataDir);
    // No ghost clean-up: nothing closed for a restart, no alert about one.
    expect(j2.orders.filter((o) => o.reason === 'paper_venue_restarted')).toEqual([]);
    expect(j2.alerts).not.toContain('paper_reset');
    expect(j2.alerts).not.toContain('leg_missing');
    // The wide grid's orders rest on through the restart, open on both sides, and are not placed again.
    const v2Status = new Map(v2.truth.orders.map((x) => [x.orderId, x.status]));
    for (const o of wide1) {
      expect(j2.orders.find((x) => x.clientOrderId === o.clientOrderId)?.state).toBe('OPEN');
      expect(v2Status.get(o.orderId as number)).toBe('NEW');
    }
    // Not placed again: no other order of the wide grid at one of their levels. (A drift of more
    // than half a spacing makes the centre level the farther one, so the grid may quote it: that
    // order is a new level, not a copy.)
    const again = j2.orders.filter((o) => o.strategyId === 'wide' && !wide1.some((w) => w.clientOrderId === o.clientOrderId) && wide1.some((w) => w.price.eq(o.price)));
    expect(again.map((o) => o.clientOrderId)).toEqual([]);
    // The orders open at the first stop were the venue's to fill or keep, not the restart's to cancel.
    for (const o of open1) {
      const now = j2.orders.find((x) => x.clientOrderId === o.clientOrderId);
      expect(['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'PENDING_CANCEL', 'CANCELLED']).toContain(now?.state);
      if (now?.state === 'CANCELLED') expect(now.reason).not.toBe('paper_venue_restarted');
    }
    expect(v2.truth.deals.ids.slice(0, v1.truth.deals.count)).toEqual(v1.truth.deals.ids);
    // The position kept its bracket (30 % away: nothing reached it), the same legs still listed.
    expect(v2.truth.positions.find((p) => p.market === 'BTC_PERP')?.amount).not.toBe('0');
    const kept = v2.brackets.find((b) => b.ocoId === bracket?.ocoId);
    expect(kept).toMatchObject({ ocoActive: true, stopLoss: { orderId: bracket?.stopLoss?.orderId, status: 'NEW' } });
    expect(j2.children.find((c) => c.orderId === bracket?.stopLoss?.orderId)?.state).toBe('active');
    expectJournalInVenue(j2, v2.truth);
    expectStatesAgree(j2, v2.truth);
    // What the operator reads: status counts the journal's fills, and the collateral position it
    // shows is the venue's (no ghost position of a forgotten account, no missing one).
    const st = (await status(dataDir)) as { fills: { count: number }; positions: { strategyId: string; market: string; base: string }[] };
    expect(st.fills.count).toBe(j2.fills.length);
    const venuePerp = v2.truth.positions.find((p) => p.market === 'BTC_PERP')?.amount;
    expect(st.positions.find((p) => p.strategyId === 'sig' && p.market === 'BTC_PERP')?.base).toBe(venuePerp);

    // A journal whose venue file is gone is refused, naming the way out; nothing is changed.
    renameSync(path.join(dataDir, PAPER_STATE_FILE), path.join(dataDir, 'moved-away.sqlite'));
    const refused = spawnDaemon(env);
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr()).toMatch(/no paper-venue\.sqlite.*--reset-paper/s);
    expect(existsSync(path.join(dataDir, PAPER_STATE_FILE))).toBe(false);
  });

  it('kill -9 while trading loses no acknowledged order or fill; balances add up from the deals', async () => {
    const dataDir = tempDir();
    const env = { BOT_CONFIG: writeConfig(config([GRID])), BOT_DATA_DIR: dataDir };
    const first = daemonForTest(env);
    await eventually(() => journal(dataDir).fills.length >= 6, 'six fills', { ...WAIT, timeoutMs: 90_000 });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const j = journal(dataDir);
    const v = paperVenueOf(dataDir);
    expectJournalInVenue(j, v.truth);
    expectBalancesFromDeals(v.truth);

    const second = daemonForTest(env);
    const before = j.fills.length;
    await eventually(() => journal(dataDir).fills.length > before, 'fills after the restart', WAIT);
    await stop(second);
    const j2 = journal(dataDir);
    const v2 = paperVenueOf(dataDir);
    expectJournalInVenue(j2, v2.truth);
    expectStatesAgree(j2, v2.truth);
    expectBalancesFromDeals(v2.truth);
    expect(j2.orders.filter((o) => o.reason === 'paper_venue_restarted')).toEqual([]);
  });

  it('a stop signal during start-up (which can already trade on a continued account) stops cleanly once start-up completes', async () => {
    const dataDir = tempDir();
    const p = daemonForTest({ BOT_CONFIG: writeConfig(config([GRID])), BOT_DATA_DIR: dataDir });
    await eventually(() => logLines(p.stdout()).some((l) => l['msg'] === 'store opened'), 'the store opened', { timeoutMs: 30_000, everyMs: 5 });
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
    const msgs = logLines(p.stdout()).map((l) => l['msg']);
    expect(msgs).toContain('signal during start-up: stopping cleanly once start-up completes (signal again to exit at once)');
    expect(msgs).toContain('stopped');
    expect(existsSync(path.join(dataDir, 'instance.lock.pid'))).toBe(false);
  });
});

/** The daemon under a pseudo-terminal (util-linux `script`), `input` typed at the confirmation question. */
function underTerminal(env: Record<string, string>, args: string[], input: string): { out(): string; done: Promise<number | null> } {
  const cmd = [process.execPath, distEntry('daemon'), ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qefc', cmd, '/dev/null'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let typed = false;
  const onData = (d: Buffer): void => {
    out += d.toString();
    if (!typed && out.includes('Type RESET to continue')) {
      typed = true;
      child.stdin.write(input);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return { out: () => out, done: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}

function archives(dataDir: string): string[] {
  const dir = path.join(dataDir, 'archive');
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe('--reset-paper', () => {
  it('needs RESET on a terminal or --yes without one, then archives the account with its journal', async () => {
    const dataDir = tempDir();
    const env = { BOT_CONFIG: writeConfig(config([GRID])), BOT_DATA_DIR: dataDir };
    const first = daemonForTest(env);
    await eventually(() => journal(dataDir).orders.length > 0, 'orders', WAIT);
    await stop(first);
    const old = journal(dataDir);

    const noTty = spawnDaemon(env, tempDir(), ['--reset-paper']);
    expect((await noTty.exited).code).toBe(2);
    expect(noTty.stderr()).toMatch(/not a terminal.*--yes/);

    const declined = underTerminal(env, ['--reset-paper'], 'no\n');
    expect(await declined.done).toBe(1);
    expect(declined.out()).toMatch(/Type RESET to continue/);
    expect(declined.out()).toMatch(/not confirmed.*nothing changed/);
    expect(archives(dataDir)).toEqual([]);
    expect(journal(dataDir).orders.length).toBe(old.orders.length);

    const port = await freePort();
    const reset = daemonForTest({ ...env, BOT_HTTP_PORT: String(port) }, tempDir(), ['--reset-paper', '--yes']);
    await eventually(() => logLines(reset.stdout()).some((l) => l['msg'] === 'daemon ready'), 'ready after the reset', WAIT);
    expect(logLines(reset.stdout()).some((l) => l['msg'] === 'paper mode: new paper account')).toBe(true);
    await stop(reset);
    const [archive] = archives(dataDir);
    expect(archive).toMatch(/^paper-\d{4}-\d\d-\d\dT/);
    const archived = path.join(dataDir, 'archive', archive as string);
    expect(readdirSync(archived)).toEqual(expect.arrayContaining([DB_FILE, PAPER_STATE_FILE]));
    // The old journal reads back from the archive; the new one holds none of its orders.
    expect(journal(archived).orders.map((o) => o.clientOrderId)).toEqual(old.orders.map((o) => o.clientOrderId));
    const fresh = new Set(journal(dataDir).orders.map((o) => o.clientOrderId));
    expect(old.orders.some((o) => fresh.has(o.clientOrderId))).toBe(false);
    expect(paperVenueOf(dataDir).truth.deals.ids.some((id) => paperVenueOf(archived).truth.deals.ids.includes(id))).toBe(false);

    const typed = underTerminal(env, ['--reset-paper'], 'RESET\n');
    await eventually(() => archives(dataDir).length === 2, 'a second archive after RESET typed', WAIT);
    // The daemon went on to start on the fresh account: it holds the data dir. Stop it by its pid.
    const pidFile = path.join(dataDir, 'instance.lock.pid');
    const pid = await eventually(() => (existsSync(pidFile) ? Number.parseInt(readFileSync(pidFile, 'utf8'), 10) : undefined), 'the daemon holding the data dir', WAIT);
    await eventually(() => existsSync(path.join(dataDir, PAPER_STATE_FILE)), 'the new paper account', WAIT);
    process.kill(pid, 'SIGINT');
    expect(await typed.done).toBe(0);
    expect(typed.out()).toMatch(/Type RESET to continue/);
  });

  it('is refused in live mode, naming why, before any network call', async () => {
    const p = spawnDaemon(
      { BOT_CONFIG: writeConfig(config([])), BOT_DATA_DIR: tempDir(), BOT_MODE: 'live', API_BASE_URL: 'https://venue.invalid', API_KEY: 'key-1234', API_SECRET: 'secret-5678' },
      tempDir(),
      ['--reset-paper', '--yes'],
    );
    expect((await p.exited).code).toBe(2);
    expect(p.stderr()).toMatch(/--reset-paper: refused in live mode/);
    expect(p.stderr()).not.toContain('secret-5678');
  });
});

