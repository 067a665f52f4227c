/**
 * Builds the frozen snapshot a hook receives, and the buffered key-value state behind
 * `ctx.state`: writes become visible to the hook at once and are committed only after it
 * returns successfully, so a hook that throws or times out leaves the state as it was.
 */
import type { FillView, FlexView, JsonValue, OrderView, PositionView, PriceView, StrategyContext, StrategyLogger, StrategyState } from './types.js';
import type { Decimal } from '../core/decimal.js';
import { candleReaders, type CandleWindowData } from './candles.js';
import { frozenFunction } from './frozen-views.js';

/** Where persisted state lives (the store implements it). */
export interface StateBackend {
  get(key: string): JsonValue | undefined;
  set(key: string, value: JsonValue): void;
  /**
   * As `set`, given the value's JSON text (what `set` would write for it): no second
   * `JSON.stringify` of a value the buffer already wrote out. Optional: without it `set` is used.
   */
  setJson?(key: string, json: string): void;
  delete(key: string): void;
  /**
   * Whether the key is known to be stored as exactly this JSON text (`null`: known absent). False
   * when not known. Optional: without it every write counts as a change.
   */
  holds?(key: string, json: string | null): boolean;
}

/**
 * A buffered write: its JSON text (`null`: a delete) and the value the hook sees when it reads the
 * key back, parsed from that text at the first such read (most hooks never read back what they
 * wrote): the same value a parse at the write would give, the text being fixed there.
 */
interface Write {
  json: string | null;
  value?: JsonValue;
}

/** The value a read of `w` gives: undefined for a delete, else the text parsed once. */
function valueOf(w: Write): JsonValue | undefined {
  if (w.json === null) return undefined;
  if (!('value' in w)) w.value = JSON.parse(w.json) as JsonValue;
  return w.value;
}

/** State writes of one hook call, applied by `commit()`. */
export class BufferedState implements StrategyState {
  /** Made at the first write: most calls write nothing, and a map per call was most of what a quiet tick allocated. */
  private writes: Map<string, Write> | null = null;

  constructor(private readonly backend: StateBackend) {}

  private writable(): Map<string, Write> {
    this.writes ??= new Map();
    return this.writes;
  }

  /** Whether the call wrote anything (a commit without writes changes nothing). */
  get written(): boolean {
    return (this.writes?.size ?? 0) > 0;
  }

  /** How many keys the call wrote or deleted (a commit is one store write per key). */
  get keysWritten(): number {
    return this.writes?.size ?? 0;
  }

  /**
   * How many of the written keys the commit would change: a key written back as the backend is
   * known to hold it (the same JSON, or deleted when absent) changes nothing.
   */
  get keysChanged(): number {
    if (this.writes === null) return 0;
    let n = 0;
    for (const [k, w] of this.writes) if (!this.unchanged(k, w)) n++;
    return n;
  }

  get(key: string): JsonValue | undefined {
    const w = this.writes?.get(key);
    if (w !== undefined) return valueOf(w);
    return this.backend.get(key);
  }

  set(key: string, value: JsonValue): void {
    // A round trip through JSON is what persistence does anyway: refuse what would not survive it.
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) throw new TypeError(`strategy state ${key}: value is not JSON-serialisable`);
    this.writable().set(key, { json });
  }

  delete(key: string): void {
    this.writable().set(key, { json: null });
  }

  /** Applies the writes that change something (the others would write what is stored). */
  commit(): void {
    const { writes } = this;
    if (writes === null) return;
    const { backend } = this;
    for (const [k, w] of writes) {
      if (this.unchanged(k, w)) continue;
      if (w.json === null) backend.delete(k);
      // Never handed to the hook, so its text is the value: not written out again.
      else if (!('value' in w) && backend.setJson !== undefined) backend.setJson(k, w.json);
      // Read back by the hook (which may have changed it in place): the value as it is now, as always.
      else backend.set(k, valueOf(w) as JsonValue);
    }
    writes.clear();
  }

  private unchanged(key: string, w: Write): boolean {
    return this.backend.holds?.(key, w.json) === true;
  }
}

/** The data of a snapshot, as the engine assembles it. */
export interface SnapshotData {
  nowMs: number;
  prices: Record<string, PriceView>;
  balances: Record<string, Decimal>;
  openOrders: readonly OrderView[];
  positions: readonly PositionView[];
  recentFills: readonly FillView[];
  flex: FlexView;
  /** The declared candle windows (none when the strategy declares no `history`). */
  candles?: CandleWindowData[];
  /** `SETTLED_LISTS` when the engine made the three lists with `settledList` (absent: each list is looked at). */
  lists?: typeof SETTLED_LISTS;
}

/**
 * The engine's mark on snapshot data whose open orders, positions and recent fills it made with
 * `settledList`: a context hands them on without a look. A symbol only the engine is given, so no
 * other data carries it (a worker's decoded copy does not); a mark per snapshot replaced a set
 * holding every list made (an entry per list, three a rebuild, was most of what making one cost).
 */
export const SETTLED_LISTS: unique symbol = Symbol('settled lists');

/**
 * Lists found frozen with every item settled (frozen, and what the item holds frozen): nothing in
 * them can change any more, so the next context takes them as they are without looking again.
 */
const settledLists = new WeakSet<readonly object[]>();
const settledFlex = new WeakSet<FlexView>();

/**
 * For the engine: `items` frozen, its items vouched for by the caller as frozen through and
 * through (a position's protection too), as the engine makes its views: handed in data marked
 * `SETTLED_LISTS`, no context looks through the list, not even once.
 */
export function settledList<T extends object>(items: T[]): readonly T[] {
  return Object.freeze(items);
}

/**
 * A frozen list of frozen views. The engine keeps its views between ticks, frozen, in frozen lists,
 * and hands the same lists to every context until something changed: such a list is one already
 * and is handed on as it is. Anything else is copied (`freeze` copies an item not settled).
 */
function frozenList<T extends object>(items: readonly T[], settled: (item: T) => boolean, freeze: (item: T) => T): readonly T[] {
  if (settledLists.has(items)) return items;
  if (Object.isFrozen(items) && items.every(settled)) {
    settledLists.add(items);
    return items;
  }
  return Object.freeze(items.map((i) => (settled(i) ? i : freeze(i))));
}

const isFrozen = (o: object): boolean => Object.isFrozen(o);
const frozenCopy = <T extends object>(o: T): T => Object.freeze({ ...o });

function freezeAll<T extends object>(items: readonly T[]): readonly T[] {
  return frozenList(items, isFrozen, frozenCopy);
}

const positionSettled = (p: PositionView): boolean => Object.isFrozen(p) && (p.protection === null || Object.isFrozen(p.protection));
const positionCopy = (p: PositionView): PositionView => Object.freeze({ ...p, protection: p.protection === null ? null : Object.freeze({ ...p.protection }) });

/** The flex view, handed on as it is when it is frozen through and through (the engine keeps one per change of the ledger). */
function flexOf(f: FlexView): FlexView {
  if (settledFlex.has(f)) return f;
  const investments = freezeAll(f.investments);
  if (Object.isFrozen(f) && Object.isFrozen(f.earnings) && investments === f.investments) {
    settledFlex.add(f);
    return f;
  }
  return Object.freeze({ investments, earnings: Object.freeze({ ...f.earnings }) });
}

/**
 * Frozen copies of the prices and balances by the object they copy: the engine hands the same
 * objects to every context until it reads the venue again (then new ones; it never changes one),
 * so the copies are made once per read, not once per hook call.
 */
const frozenPrices = new WeakMap<Record<string, PriceView>, Readonly<Record<string, PriceView>>>();
const frozenBalances = new WeakMap<Record<string, Decimal>, Readonly<Record<string, Decimal>>>();

/**
 * The price map last found frozen through and through (nothing in it can change): every context
 * until the next venue read gets that one, so one comparison answers; a map is looked through
 * once per read (a set of every map seen grew by one entry a candle).
 */
let lastSettledPrices: Readonly<Record<string, PriceView>> | undefined;

/**
 * For the engine: `prices` frozen, vouched for by the caller as frozen through and through (each
 * view frozen where it is made, as the market data makes them): the contexts hand it on from now
 * on without looking through it, not even once per venue read.
 */
export function settledPrices(prices: Readonly<Record<string, PriceView>>): Readonly<Record<string, PriceView>> {
  lastSettledPrices = Object.freeze(prices);
  return prices;
}

function pricesOf(source: Record<string, PriceView>): Readonly<Record<string, PriceView>> {
  if (source === lastSettledPrices) return source;
  // Frozen through and through (the engine's, src/engine/market-data.ts): handed on, nothing to copy or keep.
  if (Object.isFrozen(source) && Object.values(source).every(isFrozen)) {
    lastSettledPrices = source;
    return source;
  }
  let frozen = frozenPrices.get(source);
  if (frozen === undefined) {
    const prices: Record<string, PriceView> = {};
    for (const [k, v] of Object.entries(source)) prices[k] = Object.freeze({ ...v });
    frozenPrices.set(source, (frozen = Object.freeze(prices)));
  }
  return frozen;
}

function balancesOf(source: Record<string, Decimal>): Readonly<Record<string, Decimal>> {
  // Frozen already (the engine's, market-data.ts, of decimals it copied for strategies): what a copy would be.
  if (Object.isFrozen(source)) return source;
  let frozen = frozenBalances.get(source);
  if (frozen === undefined) frozenBalances.set(source, (frozen = Object.freeze({ ...source })));
  return frozen;
}

/** The readers of a snapshot without candle windows: they hold nothing, so every such context shares them. */
const NO_CANDLES = candleReaders([]);

/**
 * `ctx.state`: the call's buffer behind its three functions, frozen, so a hook reaches nothing
 * else of it (neither its backend nor its commit, which only the runner calls after the hook).
 */
function stateOf(s: StrategyState): StrategyState {
  return Object.freeze({
    get: frozenFunction((key: string) => s.get(key)),
    set: frozenFunction((key: string, value: JsonValue) => s.set(key, value)),
    delete: frozenFunction((key: string) => s.delete(key)),
  });
}

/** `ctx.log`: the instance's logger behind its four functions, frozen; one per logger. */
const logs = new WeakMap<StrategyLogger, StrategyLogger>();

function logOf(log: StrategyLogger): StrategyLogger {
  let facade = logs.get(log);
  if (facade === undefined) {
    facade = Object.freeze({
      debug: frozenFunction((o: object, m?: string) => log.debug(o, m)),
      info: frozenFunction((o: object, m?: string) => log.info(o, m)),
      warn: frozenFunction((o: object, m?: string) => log.warn(o, m)),
      error: frozenFunction((o: object, m?: string) => log.error(o, m)),
    });
    logs.set(log, facade);
  }
  return facade;
}

/**
 * A frozen context: every view frozen (the engine's views hold decimals copied for strategies,
 * frozen-views.ts), and `state` and `log` behind frozen functions.
 */
export function buildContext<P>(
  instanceId: string,
  params: P,
  data: SnapshotData,
  state: StrategyState,
  log: StrategyLogger,
): StrategyContext<P> {
  const readers = data.candles === undefined || data.candles.length === 0 ? NO_CANDLES : candleReaders(data.candles);
  const settled = data.lists === SETTLED_LISTS;
  // The readers' fields named one by one (a spread builds the object on a slow path), in the same order.
  return Object.freeze({
    instanceId,
    params,
    nowMs: data.nowMs,
    prices: pricesOf(data.prices),
    balances: balancesOf(data.balances),
    openOrders: settled ? data.openOrders : freezeAll(data.openOrders),
    positions: settled ? data.positions : frozenList(data.positions, positionSettled, positionCopy),
    recentFills: settled ? data.recentFills : freezeAll(data.recentFills),
    flex: flexOf(data.flex),
    candles: readers.candles,
    openCandle: readers.openCandle,
    history: readers.history,
    state: stateOf(state),
    log: logOf(log),
  });
}
