/**
 * Everything the checks judge, gathered once after the run has settled: the venue's ground truth
 * (orders, deals, every OTO/OCO with its legs) and the bot's store (orders and their state
 * history, fills, alerts), in domain words with Decimal amounts.
 */
import { SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import type { Bracket, DealSums, Truth } from '../../src/simulator/index.js';
import { readTradingState, type PersistedTradingState } from '../../src/engine/trading-state.js';
import { openStoreReadOnly, type AlertRecord, type BalanceAuditRecord } from '../../src/store/index.js';
import type { FillRecord } from '../../src/model/fills.js';
import type { OrderRecord } from '../../src/model/journal.js';
import type { DaemonRun } from './daemon.js';
import type { EquitySample } from './true-equity.js';

export interface VenueDeal {
  dealId: number;
  orderId: number;
  clientOrderId: string;
  market: string;
  side: 'buy' | 'sell';
  amount: Decimal;
  price: Decimal;
  quote: Decimal;
  fee: Decimal;
  timeMs: number;
}

export interface VenueOrder {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: 'buy' | 'sell';
  status: string;
  amount: Decimal;
  filled: Decimal;
  /** Set on the legs of an OCO. */
  ocoId: number | null;
}

export interface Evidence {
  venue: { orders: VenueOrder[]; deals: VenueDeal[]; brackets: Bracket[]; sums: Record<string, DealSums> };
  store: {
    orders: OrderRecord[];
    fills: FillRecord[];
    alerts: AlertRecord[];
    /** clientOrderIds that were UNKNOWN at some point. */
    everUnknown: string[];
    /** The persisted trading state at the end of the run (null: never changed, ACTIVE). */
    tradingState: PersistedTradingState | null;
    /** Every balance audit's stored result, oldest first. */
    audits: BalanceAuditRecord[];
  };
  /** When the venue settled the account itself at the end of the run (ms, wall clock), null if it did not. */
  venueSettle: { fromMs: number; toMs: number } | null;
  /** The account's true equity over the run (simulator truth) and the configured drawdown limit, %. */
  equity: { samples: EquitySample[]; limitPct: string };
  runs: DaemonRun[];
  /** Position limit per market (maxPositionBase), decimal strings. */
  limits: Readonly<Record<string, string>>;
  /** collateral-signal instance ids: their orders without a stop-loss are exits. */
  signalInstances: readonly string[];
}

/** Orders the venue itself placed (settle route), never the bot's. */
export const isVenueOwn = (clientOrderId: string): boolean => clientOrderId.startsWith('sim-settle-');

function str(o: Record<string, unknown>, k: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new Error(`truth field ${k} is not a string`);
  return v;
}

export function venueDeals(truth: Truth): VenueDeal[] {
  return truth.deals.list
    .map((d) => ({
      dealId: d['id'] as number,
      orderId: d['orderId'] as number,
      clientOrderId: str(d, 'clientOrderId'),
      market: str(d, 'market'),
      side: str(d, 'side') as 'buy' | 'sell',
      amount: new Decimal(str(d, 'amount')),
      price: new Decimal(str(d, 'price')),
      quote: new Decimal(str(d, 'deal')),
      fee: new Decimal(str(d, 'fee')),
      timeMs: Math.round((d['time'] as number) * 1000),
    }))
    .sort((a, b) => a.dealId - b.dealId);
}

export function venueOrders(truth: Truth): VenueOrder[] {
  return truth.orders.map((o) => ({
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    market: str(o, 'market'),
    side: str(o, 'side') as 'buy' | 'sell',
    status: o.status,
    amount: new Decimal(str(o, 'amount')),
    filled: new Decimal(str(o, 'dealStock')),
    ocoId: o.ocoId,
  }));
}

export function storeEvidence(dataDir: string): Evidence['store'] {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    const orders = store.orders.all();
    const everUnknown = orders.filter((o) => store.orders.history(o.clientOrderId).some((e) => e.to === 'UNKNOWN')).map((o) => o.clientOrderId);
    const audits = store.audit.recent(100_000).reverse();
    return { orders, fills: store.fills.all(), alerts: store.alerts.list(), everUnknown, tradingState: readTradingState(store.meta), audits };
  } finally {
    store.close();
  }
}
