/**
 * Read models for strategy snapshots and `npm run status`: open orders, recent fills and
 * positions by strategy and market, all derived from the store (positions from fills, never
 * stored). The store may not import the engine, so the position fold is applied here.
 */
import type { Store } from '../store/index.js';
import type { FillRecord, PositionFill } from '../model/fills.js';
import type { OrderRecord } from '../model/journal.js';
import { LIVE_STATES } from './order-state.js';
import { ZERO } from '../core/decimal.js';
import { derivePositions, type Position } from './positions.js';

type ReadStore = Pick<Store, 'orders' | 'fills'>;

export class ReadModels {
  /** Derived positions by strategy id (`*` = all fills), valid while the fills version holds. */
  private readonly positionCache = new Map<string, Position[]>();
  private cachedVersion = -1;

  constructor(private readonly store: ReadStore) {}

  /** The strategy's orders that may still rest on the venue (PENDING, OPEN, PARTIALLY_FILLED, PENDING_CANCEL, UNKNOWN). */
  openOrders(strategyId: string): OrderRecord[] {
    return this.store.orders.listByStrategy(strategyId, LIVE_STATES);
  }

  /** The strategy's newest fills, newest first. */
  recentFills(strategyId: string, limit = 50): FillRecord[] {
    return this.store.fills.recentByStrategy(strategyId, limit);
  }

  /** The strategy's positions, one per market it traded, provisional fills included. */
  positions(strategyId: string): Position[] {
    const provisional = this.provisionalFills().filter((f) => f.strategyId === strategyId);
    if (provisional.length > 0) return derivePositions([...this.store.fills.byStrategy(strategyId), ...provisional]);
    return this.cached(strategyId, () => derivePositions(this.store.fills.byStrategy(strategyId)));
  }

  /** Every position (strategies and external fills, `strategyId` null), provisional fills included. */
  allPositions(): Position[] {
    const provisional = this.provisionalFills();
    if (provisional.length > 0) return derivePositions([...this.store.fills.all(), ...provisional]);
    return this.cached('*', () => derivePositions(this.store.fills.all()));
  }

  /**
   * What replies reported filled beyond the deals applied so far, one pseudo-fill per order at
   * the reply's average price and without fees (the deals, when they arrive, replace it exactly:
   * the excess shrinks as they are applied). Negative ids: never a venue deal id. Rare and
   * short-lived, so these bypass the cache.
   */
  private provisionalFills(): PositionFill[] {
    return this.store.orders.listProvisional().flatMap((o, i): PositionFill[] => {
      const amount = o.reportedFilledBase.minus(o.filledBase);
      if (amount.lte(0)) return [];
      const price = o.reportedFilledQuote.div(o.reportedFilledBase);
      return [{ dealId: -(i + 1), strategyId: o.strategyId, market: o.market, side: o.side, timeMs: o.updatedMs, amount, price, quote: amount.mul(price), fee: ZERO, feeAsset: '' }];
    });
  }

  /**
   * The risk gate asks for positions on every intent; folding the whole fill history each time
   * grows with the daemon's age. Positions only change when a fill is written, so they are
   * recomputed only after the fills repository's version moved. Callers get copies of the list.
   */
  private cached(key: string, derive: () => Position[]): Position[] {
    const version = this.store.fills.version;
    if (version !== this.cachedVersion) {
      this.positionCache.clear();
      this.cachedVersion = version;
    }
    let hit = this.positionCache.get(key);
    if (hit === undefined) {
      hit = derive();
      this.positionCache.set(key, hit);
    }
    return hit.map((p) => ({ ...p, fees: { ...p.fees } }));
  }
}
