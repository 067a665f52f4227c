/**
 * One equity reading for the kill switch (docs/equity.md §5, "Reading the venue and the journal
 * together"). The venue's available balances and the journal's open orders must describe the same
 * instant: an order placed or cancelled between the two reads would be counted twice or not at
 * all, and a fill the venue made that the journal has not applied yet would count both as the
 * order's hold and in the balance. So each attempt reads the journal, then the venue, asks whether
 * the venue holds deals the journal lacks (and reconciles them in when it does), then reads the
 * journal again; the reading is kept only when nothing moved and no placement was waiting for its
 * answer. After the last attempt the last reading is used, so a busy journal never blinds the switch.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Store } from '../store/index.js';
import type { PriceView } from '../strategy-api/host.js';
import { equityOf, type Equity } from './equity.js';
import type { EquitySources, JournalParts } from './equity-sources.js';
import { HISTORY_CHECKPOINT } from './reconciler.js';

export interface VenueReading {
  prices: Record<string, PriceView>;
  balances: Record<string, Decimal>;
}

export interface EquityReading extends VenueReading {
  equity: Equity;
  journal: JournalParts;
  /** False when the journal kept moving over every attempt (the reading may be off by an order in flight). */
  settled: boolean;
  attempts: number;
}

export interface ReadEquityDeps {
  equityAsset: string;
  sources: Pick<EquitySources, 'read'>;
  /** Prices and balances requested now (never a cached read). */
  fresh: () => Promise<VenueReading>;
  /** True when the venue holds deals the journal has not applied; absent: not asked. */
  unappliedDeals?: () => Promise<boolean>;
  /** Applies them (a reconciliation pass). */
  reconcile?: () => Promise<unknown>;
  attempts?: number;
  /** The last valuation kept (KeptValuation); absent: every reading is valued afresh. */
  valuation?: KeptValuation;
}

export const EQUITY_READ_ATTEMPTS = 4;

/** Last price per market, as the equity rule takes it. */
export function lastPrices(prices: Readonly<Record<string, PriceView>>): Record<string, Decimal> {
  return Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, v.last]));
}

/**
 * Whether the venue's executed history since the last scan's anchor holds a deal the store lacks.
 * Only the newest page is read (newest first: a deal the journal lacks is among the newest).
 */
export async function venueHasUnappliedDeals(gateway: Pick<ExchangeGateway, 'fills'>, store: Pick<Store, 'checkpoints' | 'fills'>, clock: Clock): Promise<boolean> {
  const cp = store.checkpoints.get(HISTORY_CHECKPOINT);
  const fromMs = cp === undefined ? undefined : Number.parseInt(cp.value, 10);
  for await (const page of gateway.fills({ ...(fromMs === undefined ? {} : { fromMs }), toMs: clock.now() })) {
    const ids = page.fills.map((f) => f.dealId);
    const known = store.fills.existing(ids);
    return ids.some((id) => !known.has(id));
  }
  return false;
}

export async function readEquity(d: ReadEquityDeps): Promise<EquityReading> {
  const attempts = d.attempts ?? EQUITY_READ_ATTEMPTS;
  for (let n = 1; ; n++) {
    const before = d.sources.read();
    const venue = await d.fresh();
    const unapplied = (await d.unappliedDeals?.()) === true;
    if (unapplied) await d.reconcile?.();
    const after = d.sources.read();
    const settled = !unapplied && before.fingerprint === after.fingerprint && after.pending === 0;
    if (settled || n >= attempts) {
      const valuation = d.valuation ?? new KeptValuation();
      const equity = valuation.value(d.equityAsset, after, venue.balances, lastPrices(venue.prices));
      return { ...venue, equity, journal: after, settled, attempts: n };
    }
  }
}

/** Same keys, equal amounts (equal decimals print and multiply alike). */
function sameAmounts(a: Readonly<Record<string, Decimal>>, b: Readonly<Record<string, Decimal>>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => b[k]?.eq(a[k] as Decimal) === true);
}

/**
 * The last valuation and what it was valued from. The equity rule is a pure function of the
 * journal's parts, the balances and the prices; the journal reading is the same object while
 * nothing was written (equity-sources.ts), so the same reading with equal balances and prices has
 * the same equity, and the kept one is the answer. A fill or a new order is a new journal reading,
 * a moved price or balance a different input: each is valued afresh.
 */
export class KeptValuation {
  private last: { journal: JournalParts; balances: Record<string, Decimal>; prices: Record<string, Decimal>; equity: Equity } | null = null;

  value(equityAsset: string, journal: JournalParts, balances: Record<string, Decimal>, prices: Record<string, Decimal>): Equity {
    const l = this.last;
    if (l !== null && l.journal === journal && l.equity.equityAsset === equityAsset && sameAmounts(l.balances, balances) && sameAmounts(l.prices, prices)) {
      return l.equity;
    }
    const { held, positions, flex } = journal;
    const equity = equityOf({ equityAsset, balances, held: held.byAsset, positions, flex, prices });
    this.last = { journal, balances, prices, equity };
    return equity;
  }
}
