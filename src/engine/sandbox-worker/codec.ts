/**
 * What crosses the worker boundary: plain JSON, money as decimal strings. Each side rebuilds
 * Decimals with its own `Decimal` class (a worker has its own copy of every module).
 */
import { Decimal } from '../../core/decimal.js';
import type { CandleView, CandleWindowData, FillView, JsonValue, OrderEventView, OrderView, PositionView, PriceView, SnapshotData } from '../../strategy-api/host.js';

/** A view with its Decimal fields as decimal strings (null stays null). */
type WireField<F> = F extends Decimal ? string : F extends Decimal | null ? string | null : F extends Decimal | undefined ? string | undefined : F;
type Wire<T> = { [K in keyof T]: WireField<T[K]> };

export type WireFill = Wire<FillView>;
export type WireOrderEvent = Wire<OrderEventView>;
type WireCandle = Wire<CandleView>;
type WireWindow = Omit<CandleWindowData, 'closed' | 'open'> & { closed: WireCandle[]; open: WireCandle | null };
type WirePosition = Omit<Wire<PositionView>, 'protection'> & { protection: Wire<NonNullable<PositionView['protection']>> | null };

export interface WireSnapshot {
  nowMs: number;
  prices: Record<string, Wire<PriceView>>;
  balances: Record<string, string>;
  openOrders: Wire<OrderView>[];
  positions: WirePosition[];
  recentFills: WireFill[];
  flex: { investments: { planId: string; investmentId: string; currency: string; amount: string }[]; earnings: Record<string, string> };
  candles?: WireWindow[];
}

const PRICE = ['last', 'bid', 'ask', 'index'] as const;
const ORDER = ['amount', 'price', 'filled', 'remaining'] as const;
const POSITION = ['base', 'avgEntryPrice'] as const;
const PROTECTION = ['stopLoss', 'takeProfit'] as const;
const FILL = ['amount', 'price', 'quote', 'fee'] as const;
const ORDER_EVENT = ['price', 'amount', 'filled'] as const;
const CANDLE = ['open', 'high', 'low', 'close', 'volume'] as const;

const str = (d: Decimal): string => d.toFixed();
const num = (s: string): Decimal => new Decimal(s);

/** Maps the named fields (present and not null) through `f`; the other fields are copied. */
function mapFields<O>(obj: object, keys: readonly string[], f: (v: never) => unknown): O {
  const out: Record<string, unknown> = { ...obj };
  for (const k of keys) {
    const v = out[k];
    if (v !== undefined && v !== null) out[k] = f(v as never);
  }
  return out as O;
}

function mapRecord<A, B>(rec: Readonly<Record<string, A>>, f: (v: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, f(v)]));
}

export const encodeFill = (f: FillView): WireFill => mapFields(f, FILL, str);
export const decodeFill = (f: WireFill): FillView => mapFields(f, FILL, num);
export const encodeOrderEvent = (e: OrderEventView): WireOrderEvent => mapFields(e, ORDER_EVENT, str);
export const decodeOrderEvent = (e: WireOrderEvent): OrderEventView => mapFields(e, ORDER_EVENT, num);

const encodeWindow = (w: CandleWindowData): WireWindow => ({
  ...w,
  closed: w.closed.map((c) => mapFields<WireCandle>(c, CANDLE, str)),
  open: w.open && mapFields<WireCandle>(w.open, CANDLE, str),
});
const decodeWindow = (w: WireWindow): CandleWindowData => ({
  ...w,
  closed: w.closed.map((c) => mapFields<CandleView>(c, CANDLE, num)),
  open: w.open && mapFields<CandleView>(w.open, CANDLE, num),
});

export function encodeSnapshot(s: SnapshotData): WireSnapshot {
  return {
    ...(s.candles === undefined ? {} : { candles: s.candles.map(encodeWindow) }),
    nowMs: s.nowMs,
    prices: mapRecord(s.prices, (p) => mapFields(p, PRICE, str)),
    balances: mapRecord(s.balances, str),
    openOrders: s.openOrders.map((o) => mapFields(o, ORDER, str)),
    positions: s.positions.map((p) => ({ ...mapFields<WirePosition>(p, POSITION, str), protection: p.protection && mapFields(p.protection, PROTECTION, str) })),
    recentFills: s.recentFills.map(encodeFill),
    flex: { investments: s.flex.investments.map((i) => ({ ...i, amount: str(i.amount) })), earnings: mapRecord(s.flex.earnings, str) },
  };
}

export function decodeSnapshot(s: WireSnapshot): SnapshotData {
  return {
    ...(s.candles === undefined ? {} : { candles: s.candles.map(decodeWindow) }),
    nowMs: s.nowMs,
    prices: mapRecord(s.prices, (p) => mapFields(p, PRICE, num)),
    balances: mapRecord(s.balances, num),
    openOrders: s.openOrders.map((o) => mapFields(o, ORDER, num)),
    positions: s.positions.map((p) => ({ ...mapFields<PositionView>(p, POSITION, num), protection: p.protection && mapFields(p.protection, PROTECTION, num) })),
    recentFills: s.recentFills.map(decodeFill),
    flex: { investments: s.flex.investments.map((i) => ({ ...i, amount: num(i.amount) })), earnings: mapRecord(s.flex.earnings, num) },
  };
}

const MAX_DEPTH = 32;

/**
 * A hook's return value (or a log object) as plain data: Decimals become decimal strings, arrays
 * and plain objects are copied, anything else that would not survive the crossing becomes a
 * marker string (so intent validation on the engine side refuses it, as it would refuse garbage).
 */
export function toPlain(value: unknown, depth = 0): JsonValue | undefined {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Decimal.isDecimal(value)) return (value as Decimal).toFixed();
  if (depth >= MAX_DEPTH || typeof value !== 'object') return `[${typeof value}]`;
  return Array.isArray(value) ? value.map((v: unknown) => toPlain(v, depth + 1) ?? null) : plainObject(value, depth);
}

function plainObject(value: object, depth: number): JsonValue {
  if (value instanceof Error) return { name: value.name, message: value.message };
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = toPlain(v, depth + 1);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

/** A strategy's log object as the host logs it: its plain form (`toPlain`), an object (anything else under `value`). */
export function logObject(obj: JsonValue | undefined): object {
  return typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? obj : { value: obj };
}
