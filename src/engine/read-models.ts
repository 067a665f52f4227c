/**
 * Read models for strategy snapshots and `npm run status`: open orders, recent fills and
 * positions by strategy and market, all derived from the store (positions from fills, never
 * stored). The store may not import the engine, so the position fold is applied here: kept
 * current fill by fill (fill-feed.ts), equal to folding every fill again (test/unit/engine).
 */
import type { Store } from '../store/index.js';
import type { FillRecord, PositionFill } from '../model/fills.js';
import type { OrderRecord } from '../model/journal.js';
import { LIVE_STATES } from './order-state.js';
import { ZERO } from '../core/decimal.js';
import { FillFeed } from './fill-feed.js';
import { SharedDealReads } from './shared-deal-reads.js';
import { VersionedMemo } from './versioned-memo.js';
import { derivePositions, PositionBooks, type Position } from './positions.js';

type ReadStore = Pick<Store, 'orders' | 'fills'>;

/** A strategy's newest fills and where in the fills' insert log they were last brought up to date. */
interface RecentFills {
  cursor: number;
  attributions: number;
  /** The strategy's fill write counter when last brought up to date. */
  version: string;
  fills: FillRecord[];
}

export class ReadModels {
  /** Every position (strategies and external fills), kept current fill by fill (fill-feed.ts). */
  private readonly books = new PositionBooks();
  private readonly feed: FillFeed;
  /** Per-tick reads, kept while nothing was written (records are immutable values; lists are copied out). */
  private readonly orderReads = new Map<string, VersionedMemo<OrderRecord[]>>();
  /** Per strategy: kept by the strategy's own fill writes (fills-repo.ts `versionOf`). */
  /** The provisional pseudo-fills, kept while no order was written (only order writes move the flag). */
  private readonly provisional = new VersionedMemo<PositionFill[]>();
  private readonly fillReads = new Map<string, RecentFills>();
  /** The books' lists handed out, by strategy (undefined: every owner's), and the fill mark they were read under. */
  private readonly positionReads = new Map<string | undefined, { mark: string; positions: readonly Position[] }>();
  /** The rows of newly inserted deals, read once for the position fold and the recent fills. */
  private readonly deals: SharedDealReads;

  constructor(private readonly store: ReadStore) {
    this.deals = SharedDealReads.of(store.fills);
    this.feed = new FillFeed(this.deals);
  }

  /** The strategy's orders that may still rest on the venue (PENDING, OPEN, PARTIALLY_FILLED, PENDING_CANCEL, UNKNOWN). */
  openOrders(strategyId: string): OrderRecord[] {
    const { orders, fills } = this.store;
    const version = fills.inTransaction ? null : String(orders.versionOf(strategyId));
    return [...memoOf(this.orderReads, strategyId).get(version, '', () => orders.listByStrategy(strategyId, LIVE_STATES))];
  }

  /**
   * The strategy's newest fills, newest first. Kept between reads: fills are never deleted and
   * change only by attribution (then read again), so the newest `limit` of all its fills are the
   * newest `limit` of those kept and its fills inserted since (insert log, rows read back so that
   * a rolled-back insert is never taken). Inside a transaction: read from SQL, nothing kept.
   */
  recentFills(strategyId: string, limit = 50): FillRecord[] {
    const { fills } = this.store;
    if (fills.inTransaction) return fills.recentByStrategy(strategyId, limit);
    const key = `${strategyId}\u0000${limit}`;
    const kept = this.fillReads.get(key);
    const version = fills.versionOf(strategyId);
    if (kept === undefined || kept.attributions !== fills.attributionCount) {
      const fresh = { cursor: fills.insertCursor, attributions: fills.attributionCount, version, fills: fills.recentByStrategy(strategyId, limit) };
      this.fillReads.set(key, fresh);
      return [...fresh.fills];
    }
    const added = fills.insertedSince(kept.cursor);
    kept.cursor = added.cursor;
    // Its own write counter unmoved: none of the inserts since were its fills.
    if (kept.version !== version && added.dealIds.length > 0) {
      const mine = this.deals.byDealIds([...new Set(added.dealIds)]).filter((f) => f.strategyId === strategyId);
      kept.fills = newestOf(kept.fills, mine, limit);
    }
    kept.version = version;
    return [...kept.fills];
  }

  /** The strategy's positions, one per market it traded, provisional fills included. */
  positions(strategyId: string): Position[] {
    return copies(this.keptPositions(strategyId));
  }

  /**
   * As `positions`, not to be edited: the kept positions themselves, so a position whose book no
   * fill moved is the same object as at the last read (the snapshot keeps its view by it). Folded
   * from the strategy's every fill only when a reply reported more filled than its deals applied
   * (provisional, short-lived) or inside a transaction that may still roll back; the same list
   * while none of the strategy's fills was written (`keptUnder`).
   */
  keptPositions(strategyId: string): readonly Position[] {
    const { fills } = this.store;
    const provisional = this.provisionalFills().filter((f) => f.strategyId === strategyId);
    if (provisional.length > 0) return derivePositions([...fills.byStrategy(strategyId), ...provisional]);
    return this.keptUnder(strategyId, fills.versionOf(strategyId), () => this.books.kept(strategyId), () => fills.byStrategy(strategyId));
  }

  /**
   * The books' list for `key`, handed on as it was while `mark` (a fill write counter: the fills it
   * folds cannot have changed without moving it) stands: most reads follow an order write or other
   * owners' fills, after which the feed's look at the insert log and a list rebuilt because another
   * owner's book moved gave equal positions again. Sound inside a transaction too: a write there
   * moves the mark (and a rolled-back one leaves it moved). What is read there is folded from
   * `stored` and not kept.
   */
  private keptUnder(key: string | undefined, mark: string, kept: () => readonly Position[], stored: () => FillRecord[]): readonly Position[] {
    const k = this.positionReads.get(key);
    if (k !== undefined && k.mark === mark) return k.positions;
    if (!this.feed.sync(this.books)) return derivePositions(stored());
    const positions = kept();
    this.positionReads.set(key, { mark, positions });
    return positions;
  }

  /** Every position (strategies and external fills, `strategyId` null), provisional fills included. */
  allPositions(): Position[] {
    return copies(this.allKeptPositions());
  }

  /** As `allPositions`, not to be edited (`keptPositions`); folded from every fill in the same two cases. */
  allKeptPositions(): readonly Position[] {
    const provisional = this.provisionalFills();
    const { fills } = this.store;
    if (provisional.length > 0) return derivePositions([...fills.all(), ...provisional]);
    return this.keptUnder(undefined, String(fills.version), () => this.books.kept(), () => fills.all());
  }

  /**
   * What replies reported filled beyond the deals applied so far, one pseudo-fill per order at
   * the reply's average price and without fees (the deals, when they arrive, replace it exactly:
   * the excess shrinks as they are applied). Negative ids: never a venue deal id. Rare and
   * short-lived, so these bypass the position books.
   */
  private provisionalFills(): PositionFill[] {
    const { orders, fills } = this.store;
    return this.provisional.get(fills.inTransaction ? null : String(orders.version), '', () => this.readProvisional());
  }

  private readProvisional(): PositionFill[] {
    return this.store.orders.listProvisional().flatMap((o, i): PositionFill[] => {
      const amount = o.reportedFilledBase.minus(o.filledBase);
      if (amount.lte(0)) return [];
      const price = o.reportedFilledQuote.div(o.reportedFilledBase);
      return [{ dealId: -(i + 1), strategyId: o.strategyId, market: o.market, side: o.side, timeMs: o.updatedMs, amount, price, quote: amount.mul(price), fee: ZERO, feeAsset: '' }];
    });
  }
}

/** The memo of one strategy's reads (one per strategy: each is kept by that strategy's writes). */
function memoOf<T>(memos: Map<string, VersionedMemo<T>>, strategyId: string): VersionedMemo<T> {
  let memo = memos.get(strategyId);
  if (memo === undefined) memos.set(strategyId, (memo = new VersionedMemo<T>()));
  return memo;
}

/**
 * The newest `limit` of the kept fills (newest first) and `added` (oldest first, as `byDealIds`
 * gives them): the two lists merged, a deal already kept taken once. Equal to sorting both by
 * (time, deal id), newest first, and cutting at `limit` (deal ids are unique).
 */
export function newestOf(kept: readonly FillRecord[], added: readonly FillRecord[], limit: number): FillRecord[] {
  const fresh = added.filter((f) => !kept.some((k) => k.dealId === f.dealId)).reverse();
  const out: FillRecord[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < kept.length || j < fresh.length)) {
    const a = kept[i];
    const b = fresh[j];
    const takeKept = b === undefined || (a !== undefined && newerFirst(a, b) < 0);
    out.push((takeKept ? a : b) as FillRecord);
    if (takeKept) i++;
    else j++;
  }
  return out;
}

const newerFirst = (a: FillRecord, b: FillRecord): number => b.timeMs - a.timeMs || b.dealId - a.dealId;

/** Callers may edit what they get: the kept positions are handed out as copies. */
function copies(positions: readonly Position[]): Position[] {
  return positions.map((p) => ({ ...p, fees: { ...p.fees } }));
}
