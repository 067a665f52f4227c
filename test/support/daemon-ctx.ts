/**
 * Builders for strategy contexts in tests: a price, an in-memory state backend, a silent
 * strategy logger.
 */
import { Decimal } from '../../src/core/decimal.js';
import { buildContext, BufferedState, type SnapshotData, type StateBackend } from '../../src/strategy-api/context.js';
import type { JsonValue, PriceView, StrategyContext, StrategyLogger } from '../../src/strategy-api/types.js';

export class MemoryState implements StateBackend {
  readonly data = new Map<string, JsonValue>();
  get(key: string): JsonValue | undefined {
    return this.data.get(key);
  }
  set(key: string, value: JsonValue): void {
    this.data.set(key, value);
  }
  delete(key: string): void {
    this.data.delete(key);
  }
}

export const quietLog: StrategyLogger = { debug() {}, info() {}, warn() {}, error() {} };

export function price(ticker: string, last: string, spread = '0'): PriceView {
  const l = new Decimal(last);
  const s = new Decimal(spread);
  const [base = 'BTC', quote = 'USDT'] = ticker.split('_');
  return { ticker, base, quote, last: l, bid: l.minus(s), ask: l.plus(s) };
}

export function snapshot(over: Partial<SnapshotData> = {}): SnapshotData {
  return {
    nowMs: 1_700_000_000_000,
    prices: {},
    balances: {},
    openOrders: [],
    positions: [],
    recentFills: [],
    flex: { investments: [], earnings: {} },
    ...over,
  };
}

/** A context over `backend`; call `state.commit()` to persist as the engine would. */
export function ctxOf<P>(params: P, data: SnapshotData, backend: StateBackend = new MemoryState()): { ctx: StrategyContext<P>; state: BufferedState } {
  const state = new BufferedState(backend);
  return { ctx: buildContext('t1', params, data, state, quietLog), state };
}
