/**
 * The state document (`GET /api/state`, src/console/state.ts) as the dashboard reads it: money is
 * a decimal string, times are ms since the epoch.
 */
import type { MarketSteps } from './format.js';

export interface StrategyView {
  id: string;
  module: string;
  quarantined: boolean;
  paused: boolean;
  lastTickMs: number | null;
  openOrders: number;
  fills: number;
  realisedGross: string;
  fees: string | null;
  realisedNet: string | null;
  unrealised: string | null;
}

export interface LegView {
  kind: string;
  price: string;
  state: string;
}

export interface PositionView {
  strategyId: string | null;
  market: string;
  base: string;
  avgEntry: string | null;
  last: string | null;
  legs: LegView[];
}

export interface OrderView {
  clientOrderId: string;
  strategyId: string;
  market: string;
  side: string;
  amount: string;
  price: string;
  filled: string;
  state: string;
}

export interface FillView {
  dealId: number;
  timeMs: number;
  strategyId: string | null;
  market: string;
  side: string;
  role: string;
  amount: string;
  price: string;
  fee: string;
  feeAsset: string;
}

export interface EquityView {
  asset: string;
  current: string | null;
  peak: string | null;
  drawdownPct: string | null;
  points: { t: number; equity: string; peak: string; drawdownPct: string }[];
  parts: { balances: string; held: string; positions: string; flex: string } | null;
  unvalued: Record<string, string> | null;
  unmarked: string[] | null;
}

export interface CreditView {
  active: boolean;
  asset: string;
  amount: string | null;
  currentLtv: string | null;
  reduceOnlyAtLtv: string | null;
  resumeBelowLtv: string | null;
  marginCallLtv: string | null;
  liquidationLtv: string | null;
}

export interface JobView {
  lastRunMs: number | null;
  lastOutcome: string | null;
  skipped: number;
}

export interface PoolView {
  limit: number;
  used: number;
  queued: number;
  paused: boolean;
  refused: number;
}

export interface DashboardState {
  nowMs: number;
  tradingState: string;
  tradingStateReason: string;
  markets: Record<string, MarketSteps>;
  jobs: Record<string, JobView>;
  strategies: StrategyView[];
  equity: EquityView;
  positions: PositionView[];
  openOrders: OrderView[];
  fills: FillView[];
  flex: { earnings: Record<string, string>; disabled: string | null };
  credit: CreditView | null;
  rateLimits: Record<string, PoolView>;
  requestQueue: { store?: string; storeUp?: boolean; nonceCollisionSuspected?: boolean };
  alerts: { atMs: number; kind: string; subject: string; detail: string }[];
  actions: { atMs: number; action: string; target: string | null; who: string; remote: string | null; result: string; detail: string | null }[];
  /** The traded markets' candle charts (`GET /api/candles`). */
  charts: { markets: string[]; timeframes: string[]; defaultTimeframe: string };
}
