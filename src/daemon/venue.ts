/**
 * Opening the venue: paper mode starts the embedded simulator on an ephemeral 127.0.0.1 port,
 * live mode takes the configured address and credentials. Both then talk HTTP through the same
 * client, so paper and live run the same code path.
 */
import { revealed, type BotConfig } from '../config/index.js';
import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { createApiClient, type ApiClient } from '../exchange/api-client.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import { createVenueGateway } from '../exchange/venue-gateway.js';
import type { Logger } from '../observability/logger.js';
import { startSimulator, type SimulatorHandle } from '../simulator/index.js';
import type { Store } from '../store/index.js';
import { paperMarkets, paperStateFile, refuseJournalWithoutAccount } from './paper-venue.js';

export interface OpenedVenue {
  /** The raw client: operational extras (rate-limit status) beside the endpoints. */
  client: ApiClient;
  /** What the engine talks to: the venue in the engine's terms. */
  gateway: ExchangeGateway;
  /** The embedded simulator in paper mode, null in live mode. */
  sim: SimulatorHandle | null;
  close(): Promise<void>;
}

interface Endpoint {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  sim: SimulatorHandle | null;
}

/**
 * The embedded simulator on its state file in the data dir: a restart continues the same paper
 * account (docs/paper-account.md). The simulator keeps the real clock: time the daemon was
 * stopped passes for the paper market too, as it would for a live one.
 */
async function startPaperVenue(config: BotConfig, store: Store, logger: Logger): Promise<Endpoint> {
  const paper = config.paper;
  refuseJournalWithoutAccount(store, config.dataDir);
  const sim = await startSimulator({
    stateFile: paperStateFile(config.dataDir),
    seed: paper.seed,
    host: '127.0.0.1',
    port: 0,
    markets: paperMarkets(config),
    defaultBalances: Object.fromEntries(Object.entries(paper.balances).map(([k, v]) => [k, v.toFixed()])),
    defaultFlex: paper.flexInvestments.map((f) => ({ currency: f.currency, amount: f.amount.toFixed(), dailyRate: f.dailyRate.toFixed() })),
    stepMs: paper.priceStepMs,
  });
  const continued = sim.persistence?.continued === true;
  const truth = sim.truth();
  logger.info(
    { baseUrl: sim.baseUrl, stateFile: sim.persistence?.file, openOrders: truth.openOrders.length, deals: truth.deals.count, balances: truth.balances },
    continued ? 'paper mode: paper account continued' : 'paper mode: new paper account',
  );
  return { baseUrl: sim.baseUrl, ...sim.defaultAccount, sim };
}

function liveEndpoint(config: BotConfig, logger: Logger): Endpoint {
  const api = config.api;
  if (api === null) throw new ConfigError('BOT_MODE: live mode needs API_BASE_URL, API_KEY and API_SECRET');
  logger.warn({ baseUrl: api.baseUrl }, 'LIVE mode: trading real funds');
  return { baseUrl: api.baseUrl, apiKey: api.apiKey.reveal(), apiSecret: api.apiSecret.reveal(), sim: null };
}

/** Opens the configured venue and the client that talks to it. */
export async function openVenue(config: BotConfig, store: Store, clock: Clock, logger: Logger): Promise<OpenedVenue> {
  const ep = config.mode === 'paper' ? await startPaperVenue(config, store, logger) : liveEndpoint(config, logger);
  const close = async (client?: ApiClient): Promise<void> => {
    await client?.close().catch(() => undefined);
    await ep.sim?.close().catch(() => undefined);
  };
  try {
    const client = createApiClient({
      baseUrl: ep.baseUrl,
      apiKey: ep.apiKey,
      apiSecret: ep.apiSecret,
      clock,
      logger: logger.child({ part: 'client' }),
      noncePersistence: store.noncePersistence(),
      nonceMode: config.nonceMode,
      rateLimits: { redisUrl: revealed(config.rateLimitRedisUrl) },
      onAlert: (a) => store.alerts.add(a.kind, 'request-queue', a.message, clock.now()),
    });
    return { client, gateway: createVenueGateway(client), sim: ep.sim, close: () => close(client) };
  } catch (err) {
    await close();
    throw err;
  }
}
