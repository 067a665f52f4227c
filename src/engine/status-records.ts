/**
 * What the daemon leaves in the store for `npm run status` beyond orders and fills: the last
 * balances and prices it saw (with the equity computed from them) and the strategies it
 * quarantined. Both live in the `meta` table as JSON (money as decimal strings), so a reader
 * with a read-only connection sees them while the daemon runs; no schema change is needed.
 */
import { dec, toWire, type Decimal } from '../core/decimal.js';
import type { Store } from '../store/index.js';
import { EQUITY_PARTS, type Equity } from './equity.js';

/** meta key of the last account snapshot (written by every equity check). */
export const ACCOUNT_KEY = 'status.account';
/** meta key of the instances quarantined in the current run (cleared at start-up: quarantine lasts until restart). */
export const QUARANTINED_KEY = 'status.quarantined';

/** meta key of the declared candle windows still warming up (docs/strategies.md § Warm-up). */
export const WARMUP_KEY = 'status.warmup';

type Meta = Pick<Store['meta'], 'get' | 'set'>;

export interface AccountSnapshot {
  atMs: number;
  equityAsset: string;
  /** Main balances by asset, as the venue reported them. */
  balances: Record<string, Decimal>;
  /** Last price by market (`BASE_QUOTE` and tickers), only the markets status needs. */
  prices: Record<string, Decimal>;
  equityQuote: Decimal;
  peakQuote: Decimal;
  /** How the equity divides into the parts of the equity rule (docs/equity.md); null in a snapshot written before parts were kept. */
  breakdown: EquityBreakdown | null;
}

/** The parts of one equity reading, what was left out for want of a price, and positions without a mark. */
export type EquityBreakdown = Pick<Equity, 'parts' | 'unvalued' | 'unmarked'>;

export interface QuarantineRecord {
  strategyId: string;
  reason: string;
  atMs: number;
}

const wireMap = (m: Readonly<Record<string, Decimal>>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, toWire(v)]));

function decMap(raw: unknown, key: string): Record<string, Decimal> {
  if (typeof raw !== 'object' || raw === null) throw new TypeError(`meta ${ACCOUNT_KEY}.${key}: expected an object of decimal strings`);
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, dec(String(v))]));
}

/**
 * The prices worth keeping: the configured markets (to mark positions) and `<ASSET>_<equityAsset>`
 * for every balance (what equity was valued at).
 */
export function pricesToKeep(
  prices: Readonly<Record<string, { last: Decimal }>>,
  markets: readonly string[],
  balances: Readonly<Record<string, Decimal>>,
  equityAsset: string,
): Record<string, Decimal> {
  const keys = new Set([...markets, ...Object.keys(balances).map((a) => `${a}_${equityAsset}`)]);
  const out: Record<string, Decimal> = {};
  for (const k of [...keys].sort()) {
    const p = prices[k];
    if (p !== undefined) out[k] = p.last;
  }
  return out;
}

export function writeAccount(meta: Meta, s: AccountSnapshot): void {
  const json = {
    atMs: s.atMs,
    equityAsset: s.equityAsset,
    balances: wireMap(s.balances),
    prices: wireMap(s.prices),
    equityQuote: toWire(s.equityQuote),
    peakQuote: toWire(s.peakQuote),
    ...(s.breakdown === null ? {} : { parts: wireMap(s.breakdown.parts), unvalued: wireMap(s.breakdown.unvalued), unmarked: s.breakdown.unmarked }),
  };
  meta.set(ACCOUNT_KEY, JSON.stringify(json));
}

/** The last snapshot, or null before the first equity check. Throws TypeError naming the field when it is malformed. */
export function readAccount(meta: Pick<Meta, 'get'>): AccountSnapshot | null {
  const raw = meta.get(ACCOUNT_KEY);
  if (raw === undefined) return null;
  const j = JSON.parse(raw) as Record<string, unknown>;
  if (typeof j['atMs'] !== 'number' || typeof j['equityAsset'] !== 'string') throw new TypeError(`meta ${ACCOUNT_KEY}: expected atMs and equityAsset`);
  return {
    atMs: j['atMs'],
    equityAsset: j['equityAsset'],
    balances: decMap(j['balances'], 'balances'),
    prices: decMap(j['prices'], 'prices'),
    equityQuote: dec(String(j['equityQuote'])),
    peakQuote: dec(String(j['peakQuote'])),
    breakdown: readBreakdown(j),
  };
}

function readBreakdown(j: Record<string, unknown>): EquityBreakdown | null {
  if (j['parts'] === undefined) return null;
  const parts = decMap(j['parts'], 'parts');
  const missing = EQUITY_PARTS.find((p) => parts[p] === undefined);
  if (missing !== undefined) throw new TypeError(`meta ${ACCOUNT_KEY}.parts: expected ${missing}`);
  const unmarked = Array.isArray(j['unmarked']) ? j['unmarked'].map(String) : [];
  return { parts: parts as EquityBreakdown['parts'], unvalued: decMap(j['unvalued'] ?? {}, 'unvalued'), unmarked };
}

export function readQuarantined(meta: Pick<Meta, 'get'>): QuarantineRecord[] {
  const raw = meta.get(QUARANTINED_KEY);
  return raw === undefined ? [] : (JSON.parse(raw) as QuarantineRecord[]);
}

/** Adds (or replaces) the record of one instance. */
export function recordQuarantine(meta: Meta, r: QuarantineRecord): void {
  const rest = readQuarantined(meta).filter((q) => q.strategyId !== r.strategyId);
  meta.set(QUARANTINED_KEY, JSON.stringify([...rest, r]));
}

/** Start-up: a quarantine lasts for the life of the process, so the new run starts with none. */
export function clearQuarantined(meta: Meta): void {
  meta.set(QUARANTINED_KEY, '[]');
}

/** An operator lifted the quarantine of one instance (control `unquarantine`). */
export function releaseQuarantine(meta: Meta, strategyId: string): void {
  meta.set(QUARANTINED_KEY, JSON.stringify(readQuarantined(meta).filter((q) => q.strategyId !== strategyId)));
}

/** A declared candle window holding fewer closed candles than it asked for. */
export interface WarmUpRecord {
  strategyId: string;
  market: string;
  timeframe: string;
  want: number;
  have: number;
}

/** The windows still short, as of the last start or candle close (empty once every window is full). */
export function recordWarmUp(meta: Meta, gaps: readonly WarmUpRecord[]): void {
  meta.set(WARMUP_KEY, JSON.stringify(gaps));
}

export function readWarmUp(meta: Pick<Meta, 'get'>): WarmUpRecord[] {
  const raw = meta.get(WARMUP_KEY);
  return raw === undefined ? [] : (JSON.parse(raw) as WarmUpRecord[]);
}
