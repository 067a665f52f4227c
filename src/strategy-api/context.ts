/**
 * Builds the frozen snapshot a hook receives, and the buffered key-value state behind
 * `ctx.state`: writes become visible to the hook at once and are committed only after it
 * returns successfully, so a hook that throws or times out leaves the state as it was.
 */
import type { FillView, FlexView, JsonValue, OrderView, PositionView, PriceView, StrategyContext, StrategyLogger, StrategyState } from './types.js';
import type { Decimal } from '../core/decimal.js';
import { candleReaders, type CandleWindowData } from './candles.js';

/** Where persisted state lives (the store implements it). */
export interface StateBackend {
  get(key: string): JsonValue | undefined;
  set(key: string, value: JsonValue): void;
  delete(key: string): void;
}

/** State writes of one hook call, applied by `commit()`. */
export class BufferedState implements StrategyState {
  private readonly writes = new Map<string, JsonValue | undefined>();

  constructor(private readonly backend: StateBackend) {}

  /** Whether the call wrote anything (a commit without writes changes nothing). */
  get written(): boolean {
    return this.writes.size > 0;
  }

  /** How many keys the call wrote or deleted (a commit is one store write per key). */
  get keysWritten(): number {
    return this.writes.size;
  }

  get(key: string): JsonValue | undefined {
    if (this.writes.has(key)) return this.writes.get(key);
    return this.backend.get(key);
  }

  set(key: string, value: JsonValue): void {
    // A round trip through JSON is what persistence does anyway: refuse what would not survive it.
    this.writes.set(key, JSON.parse(JSON.stringify(value)) as JsonValue);
  }

  delete(key: string): void {
    this.writes.set(key, undefined);
  }

  commit(): void {
    for (const [k, v] of this.writes) {
      if (v === undefined) this.backend.delete(k);
      else this.backend.set(k, v);
    }
    this.writes.clear();
  }
}

/** The data of a snapshot, as the engine assembles it. */
export interface SnapshotData {
  nowMs: number;
  prices: Record<string, PriceView>;
  balances: Record<string, Decimal>;
  openOrders: OrderView[];
  positions: PositionView[];
  recentFills: FillView[];
  flex: FlexView;
  /** The declared candle windows (none when the strategy declares no `history`). */
  candles?: CandleWindowData[];
}

/** Frozen copies of the views; a view already frozen (the engine keeps those between ticks) is one already. */
function freezeAll<T>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.map((i) => (Object.isFrozen(i) ? i : Object.freeze({ ...i }))));
}

/**
 * Frozen copies of the prices and balances by the object they copy: the engine hands the same
 * objects to every context until it reads the venue again (then new ones; it never changes one),
 * so the copies are made once per read, not once per hook call.
 */
const frozenPrices = new WeakMap<Record<string, PriceView>, Readonly<Record<string, PriceView>>>();
const frozenBalances = new WeakMap<Record<string, Decimal>, Readonly<Record<string, Decimal>>>();

function pricesOf(source: Record<string, PriceView>): Readonly<Record<string, PriceView>> {
  let frozen = frozenPrices.get(source);
  if (frozen === undefined) {
    const prices: Record<string, PriceView> = {};
    for (const [k, v] of Object.entries(source)) prices[k] = Object.freeze({ ...v });
    frozenPrices.set(source, (frozen = Object.freeze(prices)));
  }
  return frozen;
}

function balancesOf(source: Record<string, Decimal>): Readonly<Record<string, Decimal>> {
  let frozen = frozenBalances.get(source);
  if (frozen === undefined) frozenBalances.set(source, (frozen = Object.freeze({ ...source })));
  return frozen;
}

/** A frozen context. Decimals are immutable by API, so a shallow freeze of each view suffices. */
export function buildContext<P>(
  instanceId: string,
  params: P,
  data: SnapshotData,
  state: StrategyState,
  log: StrategyLogger,
): StrategyContext<P> {
  return Object.freeze({
    instanceId,
    params,
    nowMs: data.nowMs,
    prices: pricesOf(data.prices),
    balances: balancesOf(data.balances),
    openOrders: freezeAll(data.openOrders),
    positions: freezeAll(
      data.positions.map((p) => ({ ...p, protection: p.protection === null ? null : Object.freeze({ ...p.protection }) })),
    ),
    recentFills: freezeAll(data.recentFills),
    flex: Object.freeze({ investments: freezeAll(data.flex.investments), earnings: Object.freeze({ ...data.flex.earnings }) }),
    ...candleReaders(data.candles ?? []),
    state,
    log,
  });
}
