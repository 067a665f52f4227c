/**
 * The built-in exchange simulator (paper venue): API v4 over real HTTP on loopback.
 *
 * ```ts
 * const sim = await startSimulator({ clock: new ManualClock(), seed: 7, admin: true });
 * // sim.baseUrl, sim.defaultAccount.apiKey / apiSecret
 * clock.advance(60_000); sim.truth(sim.defaultAccount.apiKey);
 * await sim.close();
 * ```
 * Time is lazy: each request and each handle call first brings the market up to the clock
 * (steps one by one, or one jump after idle time: venue.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SystemClock, type Clock } from '../core/clock.js';
import { toWire } from '../core/decimal.js';
import type { AdminOps } from './admin.js';
import type { Bracket } from './brackets.js';
import { scenarioAdminOps } from './admin-scenario-ops.js';
import { Faults } from './faults.js';
import {
  DEFAULT_BALANCES,
  DEFAULT_RATE_LIMITS,
  defaultMarkets,
  type AccountOptions,
  type FaultOptions,
  type SimulatorOptions,
} from './options.js';
import { RateLimiter } from './rate-limit.js';
import { openPersistentVenue } from './persist/index.js';
import { createSimServer } from './server.js';
import type { SettleOptions, SettleResult } from './settle.js';
import { truthOf, type Truth } from './truth.js';
import { Venue } from './venue.js';
import type { Market } from './market.js';

export type {
  SimulatorOptions,
  MarketOptions,
  AccountOptions,
  FlexOptions,
  LoanOptions,
  FaultOptions,
  EndpointFaults,
  RateLimit,
  RatePool,
} from './options.js';
export { defaultMarkets, DEFAULT_BALANCES, DEFAULT_RATE_LIMITS } from './options.js';
export type { Truth, TruthOrder, DealSums } from './truth.js';
export type { Bracket, BracketLeg } from './brackets.js';
export type { SettleOptions, SettleResult } from './settle.js';
export { linkedMarkets } from './linked-markets.js';
export { PaperStateError } from './persist/index.js';

/** API key pair of an account. */
export interface KeyPair {
  apiKey: string;
  apiSecret: string;
}

/** A running simulator. All methods first catch the market up to the clock. */
export interface SimulatorHandle {
  /** e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly baseUrl: string;
  readonly port: number;
  /** Key pair of the default account (the first configured, or a generated funded one). */
  readonly defaultAccount: KeyPair;
  /** Ground truth of an account (default: the default account). Throws for an unknown key. */
  truth(apiKey?: string): Truth;
  /** Current price per market and simulator time (ms). */
  prices(): { time: number; prices: Record<string, string> };
  /** The venue's markets with their rules (fees, leverage): how it reserves funds for orders. */
  readonly markets: ReadonlyMap<string, Market>;
  /** Sets a market price (decimal string, rounded to the tick); orders react at once. */
  setPrice(market: string, price: string): void;
  /** Runs `n` price steps (advances simulated time by n * stepMs; more than `maxWalkSteps` are one jump). */
  step(n: number): void;
  /** Advances simulated time by `ms` on top of the clock. */
  advance(ms: number): void;
  /** Replaces the fault settings (streams restart from the seed). */
  setFaults(faults: FaultOptions): void;
  /** Adds an account; missing key/secret are generated. Default balances: none. */
  createAccount(opts?: Partial<AccountOptions>): KeyPair;
  /** Sets several prices at once (a spot market and its perpetual together). */
  setPrices(prices: Record<string, string>): void;
  /** Cancels open orders and OTO/OCO records of an account; `flatten` also closes positions. */
  settle(apiKey?: string, opts?: SettleOptions): SettleResult;
  /** Cancels the legs of one active OCO (as the venue or an operator might). */
  cancelOco(ocoId: number, apiKey?: string): void;
  /** Every OTO/OCO an account ever had, with its legs. */
  brackets(apiKey?: string): Bracket[];
  /** The state file (option `stateFile`) and whether this start continued the venue it held; null in memory. */
  readonly persistence: { file: string; continued: boolean } | null;
  /** Stops listening and drops every open connection (hung ones included). */
  close(): Promise<void>;
}

function generatedKeyPair(): KeyPair {
  return { apiKey: randomBytes(16).toString('hex'), apiSecret: randomBytes(32).toString('hex') };
}

/** The venue with its accounts: the configured ones, or one generated and funded. */
function createVenue(options: SimulatorOptions, clock: Clock, seed: number): { venue: Venue; defaultAccount: KeyPair } {
  const venue = new Venue(clock, seed, options.markets ?? defaultMarkets(), options.stepMs ?? 1000, options.maxWalkSteps);
  const accounts = options.accounts ?? [];
  if (accounts.length === 0) {
    venue.addAccount({ ...generatedKeyPair(), balances: options.defaultBalances ?? DEFAULT_BALANCES, flex: options.defaultFlex ?? [] });
  } else {
    for (const a of accounts) venue.addAccount(a);
  }
  const first = [...venue.accounts.values()][0];
  if (first === undefined) throw new Error('simulator: no account');
  return { venue, defaultAccount: { apiKey: first.apiKey, apiSecret: first.apiSecret } };
}

/** The in-process operations behind the handle and the admin routes; each catches up first. */
function adminOps(venue: Venue, faults: Faults, defaultAccount: KeyPair): AdminOps {
  return {
    truth(apiKey) {
      venue.catchUp();
      const account = venue.accounts.get(apiKey ?? defaultAccount.apiKey);
      if (account === undefined) throw new RangeError('unknown apiKey');
      return truthOf(venue, account);
    },
    prices() {
      venue.catchUp();
      const prices: Record<string, string> = {};
      for (const m of venue.markets.values()) prices[m.name] = toWire(m.price);
      return { time: venue.nowMs(), prices };
    },
    setPrice: (market, price) => venue.setPrice(market, price),
    step: (n) => venue.step(n),
    advance: (ms) => venue.advance(ms),
    faults: () => faults.current,
    setFaults: (f) => faults.set(f),
    createAccount(opts = {}) {
      venue.catchUp();
      const pair = { apiKey: opts.apiKey ?? generatedKeyPair().apiKey, apiSecret: opts.apiSecret ?? generatedKeyPair().apiSecret };
      venue.addAccount({ ...opts, ...pair });
      return pair;
    },
  };
}

/** How the venue's state is kept: nowhere (in memory), or in the state file. */
interface StateKeeping {
  commit(): void;
  close(): void;
  info: SimulatorHandle['persistence'];
}

const IN_MEMORY: StateKeeping = { commit: () => undefined, close: () => undefined, info: null };

/** The venue in memory, or the one the state file holds (created there when new). */
function venueOf(options: SimulatorOptions, clock: Clock, seed: number): { venue: Venue; defaultAccount: KeyPair; state: StateKeeping } {
  if (options.stateFile === undefined) return { ...createVenue(options, clock, seed), state: IN_MEMORY };
  const file = path.resolve(options.stateFile);
  const p = openPersistentVenue(file, options, clock, seed, () => createVenue(options, clock, seed));
  return { venue: p.venue, defaultAccount: p.defaultAccount, state: { commit: p.commit, close: p.close, info: { file, continued: p.continued } } };
}

/** `ops` with every function (nested objects included) followed by `commit`: in-process calls change state too. */
function committing<T extends object>(ops: T, commit: () => void): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ops)) {
    if (typeof v === 'function') {
      out[k] = (...args: unknown[]): unknown => {
        const r: unknown = (v as (...a: unknown[]) => unknown)(...args);
        commit();
        return r;
      };
    } else out[k] = typeof v === 'object' && v !== null ? committing(v, commit) : v;
  }
  return out as T;
}

/** Listens on `host:port` (0 = ephemeral) and resolves with the bound port. */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The host part of the base URL: IPv6 in brackets, and loopback when listening on every interface. */
function urlHost(host: string): string {
  if (host.includes(':')) return `[${host}]`;
  return host === '0.0.0.0' ? '127.0.0.1' : host;
}

/** Starts the venue and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const clock = options.clock ?? new SystemClock();
  const seed = options.seed ?? 1;
  const { venue, defaultAccount, state } = venueOf(options, clock, seed);
  const commit = state.commit;
  const faults = new Faults(seed, options.faults ?? {});
  const scenarios = committing(scenarioAdminOps(venue, defaultAccount.apiKey), commit);
  const ops: AdminOps = committing({ ...adminOps(venue, faults, defaultAccount), scenarios }, commit);
  const server = createSimServer({
    venue,
    clock,
    limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }),
    faults,
    admin: options.admin === true ? ops : undefined,
    routeContext: { venue, options: { flatHistoryWithMarket: options.flatHistoryWithMarket ?? false } },
    logger: options.logger,
    commit,
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host).catch((err: unknown) => {
    state.close();
    throw err;
  });
  options.logger?.info({ port }, 'simulator listening');
  return {
    baseUrl: `http://${urlHost(host)}:${port}`,
    port,
    defaultAccount,
    truth: ops.truth,
    prices: ops.prices,
    markets: venue.markets,
    setPrice: ops.setPrice,
    step: ops.step,
    advance: ops.advance,
    setFaults: ops.setFaults,
    createAccount: ops.createAccount,
    setPrices: (prices) => scenarios.setPrices(prices),
    settle: (apiKey, opts = {}) => scenarios.settle(apiKey, opts),
    cancelOco: (ocoId, apiKey) => scenarios.cancelOco(apiKey, ocoId),
    brackets: (apiKey) => scenarios.brackets(apiKey),
    persistence: state.info,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          state.close();
          if (err === undefined) resolve();
          else reject(err);
        });
        server.closeAllConnections();
      }),
  };
}
