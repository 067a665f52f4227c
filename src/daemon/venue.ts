/**
 * Opening the venue: paper mode starts the embedded simulator on an ephemeral 127.0.0.1 port,
 * live mode takes the configured address and credentials. Both then talk HTTP through the same
 * client, so paper and live run the same code path.
 */
import { revealed, type BotConfig } from '../config/index.js';
import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { createApiClient, type ApiClient } from '../exchange/client.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import { createVenueGateway } from '../exchange/venue-gateway.js';
import type { Logger } from '../observability/logger.js';
import { startSimulator, type SimulatorHandle } from '../simulator/index.js';
import type { Store } from '../store/index.js';
import { closePaperGhosts, paperMarkets } from './paper-venue.js';

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

async function startPaperVenue(config: BotConfig, store: Store, clock: Clock, logger: Logger): Promise<Endpoint> {
  const paper = config.paper;
  closePaperGhosts(store, clock, logger);
  const sim = await startSimulator({
    seed: paper.seed,
    host: '127.0.0.1',
    port: 0,
    markets: paperMarkets(config),
    defaultBalances: Object.fromEntries(Object.entries(paper.balances).map(([k, v]) => [k, v.toFixed()])),
    defaultFlex: paper.flexInvestments.map((f) => ({ currency: f.currency, amount: f.amount.toFixed(), dailyRate: f.dailyRate.toFixed() })),
    stepMs: paper.priceStepMs,
  });
  logger.info({ baseUrl: sim.baseUrl }, 'paper mode: embedded simulator started');
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
  const ep = config.mode === 'paper' ? await startPaperVenue(config, store, clock, logger) : liveEndpoint(config, logger);
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
