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
import { planEquity, priceEquity, type Equity, type EquityPlan } from './equity.js';
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
  /**
   * True when the venue holds deals the journal has not applied; absent: not asked. A plain
   * boolean when it is known without asking the venue (no deal since the last scan).
   */
  unappliedDeals?: () => boolean | Promise<boolean>;
  /** Applies them (a reconciliation pass). */
  reconcile?: () => Promise<unknown>;
  attempts?: number;
  /** The last valuation kept (KeptValuation); absent: every reading is valued afresh. */
  valuation?: KeptValuation;
}

export const EQUITY_READ_ATTEMPTS = 4;

/** Last price per market, as the equity rule takes it. */
export function lastPrices(prices: Readonly<Record<string, PriceView>>): Record<string, Decimal> {
  const out: Record<string, Decimal> = {};
  for (const k of Object.keys(prices)) out[k] = (prices[k] as PriceView).last;
  return out;
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

/** The journal did not move between two readings: the same reading (its fingerprint not even made), or equal fingerprints. */
function sameJournal(before: JournalParts, after: JournalParts): boolean {
  return before === after || before.fingerprint === after.fingerprint;
}

export async function readEquity(d: ReadEquityDeps): Promise<EquityReading> {
  const attempts = d.attempts ?? EQUITY_READ_ATTEMPTS;
  for (let n = 1; ; n++) {
    const before = d.sources.read();
    const venue = await d.fresh();
    const probe = d.unappliedDeals?.();
    // Awaited only when the venue is asked: a known answer costs no turn.
    const unapplied = (typeof probe === 'object' ? await probe : probe) === true;
    if (unapplied) await d.reconcile?.();
    const after = d.sources.read();
    const settled = !unapplied && sameJournal(before, after) && after.pending === 0;
    if (settled || n >= attempts) {
      const valuation = d.valuation ?? new KeptValuation();
      const equity = valuation.value(d.equityAsset, after, venue.balances, venue.prices);
      // Fields named, not spread: a spread of the venue reading took most of a quiet check's time.
      return { prices: venue.prices, balances: venue.balances, equity, journal: after, settled, attempts: n };
    }
  }
}

/** Same keys, equal amounts (equal decimals print and multiply alike). */
function sameAmounts(a: Readonly<Record<string, Decimal>>, b: Readonly<Record<string, Decimal>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => b[k]?.eq(a[k] as Decimal) === true);
}

/** The last price of `market` (undefined: none listed). */
function lastOf(prices: Readonly<Record<string, PriceView>>, market: string): Decimal | undefined {
  return Object.hasOwn(prices, market) ? prices[market]?.last : undefined;
}

/** Last prices by index (undefined: none listed). */
type Lasts = readonly (Decimal | undefined)[];

/** The last price of each of `markets`, and whether each equals the one in `was` (none: not compared). */
function pricesAt(markets: readonly string[], prices: Readonly<Record<string, PriceView>>, was?: Lasts): { at: (Decimal | undefined)[]; same: boolean } {
  const at: (Decimal | undefined)[] = new Array<Decimal | undefined>(markets.length);
  let same = was !== undefined;
  for (let i = 0; i < markets.length; i++) {
    const now = lastOf(prices, markets[i] as string);
    at[i] = now;
    if (!same) continue;
    const before = (was as Lasts)[i];
    same = now === before || (now !== undefined && before !== undefined && now.eq(before));
  }
  return { at, same };
}

interface Valued {
  journal: JournalParts;
  balances: Readonly<Record<string, Decimal>>;
  /** The rule's plan for this journal reading and these balances (equity.ts planEquity). */
  plan: EquityPlan;
  /** The last prices of the plan's markets it was valued at. */
  used: Lasts;
  equity: Equity;
}

/**
 * The last valuation and what it was valued from. The equity rule is a pure function of the
 * journal's parts, the balances and the prices it looks up (equity.ts: the plan of the first two,
 * priced at the third); the journal reading is the same object while nothing was written
 * (equity-sources.ts), so the same reading with equal balances keeps its plan, and only the prices
 * are looked up and multiplied in again; with equal prices at every market the plan looks up too,
 * the kept equity is the answer: a market whose asset the account does not hold can move freely.
 * A fill, a new order, flex earned or a moved balance is a new input: planned afresh.
 */
export class KeptValuation {
  private last: Valued | null = null;

  value(equityAsset: string, journal: JournalParts, balances: Record<string, Decimal>, prices: Readonly<Record<string, PriceView>>): Equity {
    const l = this.last;
    const sameInputs = l !== null && l.journal === journal && l.plan.equityAsset === equityAsset && sameAmounts(l.balances, balances);
    const plan = sameInputs ? l.plan : planEquity({ equityAsset, balances, held: journal.held.byAsset, positions: journal.positions, flex: journal.flex });
    const { at, same } = pricesAt(plan.markets, prices, sameInputs ? l.used : undefined);
    if (sameInputs && same) return l.equity;
    const equity = priceEquity(plan, at);
    this.last = { journal, balances, plan, used: at, equity };
    return equity;
  }
}
