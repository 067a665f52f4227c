/**
 * Read models for strategy snapshots and `npm run status`: open orders, recent fills and
 * positions by strategy and market, all derived from the store (positions from fills, never
 * stored). The store may not import the engine, so the position fold is applied here.
 */
import type { FillRecord, OrderRecord, Store } from '../store/index.js';
import { LIVE_STATES } from './order-state.js';
import { derivePositions, type Position } from './positions.js';

type ReadStore = Pick<Store, 'orders' | 'fills'>;

export class ReadModels {
  constructor(private readonly store: ReadStore) {}

  /** The strategy's orders that may still rest on the venue (PENDING, OPEN, PARTIALLY_FILLED, PENDING_CANCEL, UNKNOWN). */
  openOrders(strategyId: string): OrderRecord[] {
    return this.store.orders.listByStrategy(strategyId, LIVE_STATES);
  }

  /** The strategy's newest fills, newest first. */
  recentFills(strategyId: string, limit = 50): FillRecord[] {
    return this.store.fills.recentByStrategy(strategyId, limit);
  }

  /** The strategy's positions, one per market it traded. */
  positions(strategyId: string): Position[] {
    return derivePositions(this.store.fills.byStrategy(strategyId));
  }

  /** Every position (strategies and external fills, `strategyId` null). */
  allPositions(): Position[] {
    return derivePositions(this.store.fills.all());
  }
}
