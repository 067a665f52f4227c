/**
 * The backtest's venue: the built-in simulator (its Venue, matching, positions, OTO/OCO, flex,
 * rate limits and HTTP routes) on the virtual clock, with every market's price path replayed from
 * the CSV (csv-market.ts). The engine reaches it in process (in-process-api.ts: the simulator's
 * route handlers called directly, their replies read by the client's parsers) or, with
 * `--venue http`, over loopback HTTP through the same client as in paper and live mode. A spot market and its perpetual share one path: a market without a file
 * of its own follows the file of a market with the same base asset (`BTC_PERP` ← `BTC_USDT.csv`).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BotConfig } from '../config/index.js';
import { ConfigError } from '../core/errors.js';
import { createApiClient } from '../exchange/api-client.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { NoncePersistence } from '../model/nonce.js';
import type { RateLimitOverrides } from '../exchange/rate-limits/pools.js';
import type { ClientAlert } from '../exchange/request-queue.js';
import { createVenueGateway } from '../exchange/venue-gateway.js';
import type { Logger } from '../observability/logger.js';
import { paperMarkets } from '../daemon/paper-venue.js';
import { Faults } from '../simulator/faults.js';
import { DEFAULT_RATE_LIMITS, type MarketOptions } from '../simulator/options.js';
import { RateLimiter } from '../simulator/rate-limit.js';
import { createSimServer } from '../simulator/server.js';
import { Venue } from '../simulator/venue.js';
import type { Account } from '../simulator/account.js';
import { CsvMarket } from './csv-market.js';
import { SqliteDealArchive, type StoredDeal } from './deal-archive.js';
import type { FillModel } from './fill-model.js';
import { inProcessApi } from './in-process-api.js';
import { inProcessGateway } from './in-process-venue.js';
import type { PriceSeries } from './load-prices.js';
import type { VirtualClock } from './virtual-clock.js';

/** How the engine reaches the venue (`--venue`): in process (default) or over loopback HTTP. */
export type VenueKind = 'in-process' | 'http';

/** The engine's side of the link to the venue. */
export interface VenueLink {
  gateway: ExchangeGateway;
  /** Calls waiting in a client rate-limit pool (always 0 in process: there is no queue). */
  queued(): number;
  /** Replies whose `Date` header was implausible (ReconcileJob's alarm); 0 in process. */
  clockSkewRejected(): number;
  close(): Promise<void>;
}

/** What the engine needs to open its link: the client over HTTP takes these; in process none. */
export interface LinkDeps {
  clock: VirtualClock;
  logger: Logger;
  noncePersistence: NoncePersistence;
  nonceMode: BotConfig['nonceMode'];
  pools: RateLimitOverrides['pools'];
  onAlert: (a: ClientAlert) => void;
}

export interface BacktestVenue {
  venue: Venue;
  account: Account;
  /** Requests the venue has received and not yet answered. */
  inFlight(): number;
  /** Requests the venue has received so far. */
  received(): number;
  /** Which CSV market drives each simulator market. */
  paths: Record<string, string>;
  connect(deps: LinkDeps): VenueLink;
  close(): Promise<void>;
  /**
   * The deals the account moved to its archive, oldest first, as stored (their decimals as text);
   * `account.deals` holds the rest, all newer. Undefined when the account keeps every deal.
   */
  archivedDeals?: () => Iterable<StoredDeal>;
}

/** The CSV market that drives `name`: its own, else one with the same base (`_USDT` first). */
export function pathFor(name: string, series: ReadonlyMap<string, unknown>): string {
  if (series.has(name)) return name;
  const base = name.split('_')[0] ?? name;
  const same = [...series.keys()].filter((m) => m.split('_')[0] === base).sort();
  const pick = same.find((m) => m === `${base}_USDT`) ?? same[0];
  if (pick === undefined) throw new ConfigError(`--prices: expected prices for market ${name} (a file ${name}.csv, or one of another ${base}_ market), found none`);
  return pick;
}

function marketOptions(config: BotConfig, model: FillModel, series: ReadonlyMap<string, PriceSeries>): Array<MarketOptions & { path: string }> {
  // The backtest's markets start at their file's first price, not at paper.startPrices.
  const firstPrice = (name: string): string => (series.get(pathFor(name, series)) as PriceSeries).first.price.toFixed();
  return paperMarkets(config, firstPrice).map((m) => {
    const path = pathFor(m.name, series);
    return {
      ...m,
      pricePath: path,
      volatility: '0',
      makerFee: model.makerFee.toFixed(),
      takerFee: model.takerFee.toFixed(),
      path,
    };
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export interface VenueInputs {
  config: BotConfig;
  clock: VirtualClock;
  series: ReadonlyMap<string, PriceSeries>;
  model: FillModel;
  stepMs: number;
}

interface BuiltVenue {
  venue: Venue;
  account: Account;
  apiKey: string;
  apiSecret: string;
  paths: Record<string, string>;
}

function buildVenue({ config, clock, series, model, stepMs }: VenueInputs): BuiltVenue {
  const seed = config.paper.seed;
  const markets = marketOptions(config, model, series);
  // No jumps: every step is walked, the CSV holds each one (csv-market.ts).
  const venue = new Venue(clock, seed, markets, stepMs, Number.MAX_SAFE_INTEGER);
  for (const m of markets) {
    venue.markets.set(m.name, new CsvMarket(m, seed, { rows: (series.get(m.path) as PriceSeries).rows(), startMs: clock.now(), stepMs, model }));
  }
  // Fixed keys: nothing random leaves the run, and the keys never appear in its output.
  const apiKey = `backtest${String(seed).padStart(8, '0')}`;
  const apiSecret = 'b'.repeat(64);
  const paper = config.paper;
  const account = venue.addAccount({
    apiKey,
    apiSecret,
    balances: Object.fromEntries(Object.entries(paper.balances).map(([k, v]) => [k, v.toFixed()])),
    flex: paper.flexInvestments.map((f) => ({ currency: f.currency, amount: f.amount.toFixed(), dailyRate: f.dailyRate.toFixed() })),
    // A run's settled orders are read by nothing after they end: memory stays flat over a year.
    keepSettledOrders: false,
  });
  return { venue, account, apiKey, apiSecret, paths: Object.fromEntries(markets.map((m) => [m.name, m.path])) };
}

function closeMarkets(venue: Venue): void {
  for (const m of venue.markets.values()) if (m instanceof CsvMarket) m.close();
}

/**
 * Deals held in memory before the oldest leave for the archive: about two and a half simulated
 * days of the default config, ~0.7 MB, whatever the run's length; an hour behind the scans.
 */
const DEALS_HELD = { batch: 1024, behindMs: 3_600_000 };

/**
 * The venue driven directly (in-process-venue.ts): no server, no client, no queue. Its account's
 * older deals go to an archive on disk (deal-archive.ts), closed and removed with the venue.
 */
export function inProcessBacktestVenue(inputs: VenueInputs): BacktestVenue {
  const { venue, account, paths } = buildVenue(inputs);
  const archive = new SqliteDealArchive();
  account.useArchive(archive);
  const api = inProcessApi(venue, account);
  return {
    venue,
    account,
    paths,
    inFlight: () => 0,
    received: () => api.received(),
    connect: () => ({
      gateway: inProcessGateway(api, account, { catchUp: () => venue.catchUp(), archive: DEALS_HELD }),
      queued: () => 0,
      clockSkewRejected: () => 0,
      close: async () => undefined,
    }),
    close: async () => {
      closeMarkets(venue);
      archive.close();
    },
    archivedDeals: () => archive.storedInOrder(),
  };
}

/** The venue behind the simulator's HTTP server, reached by the API client (`--venue http`). */
export async function httpBacktestVenue(inputs: VenueInputs): Promise<BacktestVenue> {
  const { clock, config } = inputs;
  const { venue, account, apiKey, apiSecret, paths } = buildVenue(inputs);
  const server = createSimServer({
    venue,
    clock,
    limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS }),
    faults: new Faults(config.paper.seed, {}),
    admin: undefined,
    routeContext: { venue, options: { flatHistoryWithMarket: false } },
    logger: undefined,
  });
  // Replies carry the venue's (virtual) time, as the live venue's carry its own: the client's
  // clock-skew check compares them with the same virtual clock.
  let inFlight = 0;
  let received = 0;
  server.prependListener('request', (_req, res) => {
    inFlight++;
    received++;
    res.once('close', () => inFlight--);
    res.setHeader('Date', new Date(clock.now()).toUTCString());
  });
  const port = await listen(server);
  const connect = (deps: LinkDeps): VenueLink => {
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey,
      apiSecret,
      clock: deps.clock,
      logger: deps.logger,
      noncePersistence: deps.noncePersistence,
      nonceMode: deps.nonceMode,
      rateLimits: { redisUrl: undefined, ...(deps.pools === undefined ? {} : { pools: deps.pools }) },
      onAlert: deps.onAlert,
    });
    return {
      gateway: createVenueGateway(client),
      queued: () => client.rateLimitQueued(),
      clockSkewRejected: () => client.clockSkewRejected(),
      close: () => client.close(),
    };
  };
  return {
    venue,
    account,
    paths,
    inFlight: () => inFlight,
    received: () => received,
    connect,
    close: () =>
      new Promise<void>((resolve) => {
        closeMarkets(venue);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function startBacktestVenue(kind: VenueKind, inputs: VenueInputs): Promise<BacktestVenue> {
  return kind === 'http' ? httpBacktestVenue(inputs) : Promise.resolve(inProcessBacktestVenue(inputs));
}
