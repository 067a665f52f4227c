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

/**
 * Every market whose price the equity rule can look up for these inputs (equity.ts):
 * `<ASSET>_<equityAsset>` of each asset with a non-zero amount in the balances, the holds or flex
 * (a zero amount is not priced), and of each position's settlement asset, and each position's
 * market (its mark). A superset is harmless: it only values afresh more often.
 */
function marketsPriced(equityAsset: string, journal: JournalParts, balances: Readonly<Record<string, Decimal>>): string[] {
  const markets = new Set<string>();
  for (const amounts of [balances, journal.held.byAsset, journal.flex]) {
    for (const asset of Object.keys(amounts)) if (asset !== equityAsset && !(amounts[asset] as Decimal).isZero()) markets.add(`${asset}_${equityAsset}`);
  }
  for (const p of journal.positions) {
    markets.add(p.market);
    if (p.settleAsset !== equityAsset) markets.add(`${p.settleAsset}_${equityAsset}`);
  }
  return [...markets];
}

/** The last price of `market` (undefined: none listed). */
function lastOf(prices: Readonly<Record<string, PriceView>>, market: string): Decimal | undefined {
  return Object.hasOwn(prices, market) ? prices[market]?.last : undefined;
}

/** Each price looked up is still there and equal, and none that was missing appeared. */
function samePrices(markets: readonly string[], was: readonly (Decimal | undefined)[], prices: Readonly<Record<string, PriceView>>): boolean {
  for (let i = 0; i < markets.length; i++) {
    const before = was[i];
    const now = lastOf(prices, markets[i] as string);
    if (now === before) continue;
    if (now === undefined || before === undefined || !now.eq(before)) return false;
  }
  return true;
}

interface Valued {
  journal: JournalParts;
  balances: Readonly<Record<string, Decimal>>;
  /** The markets the rule prices for this journal reading and these balances, and their last prices then. */
  markets: readonly string[];
  used: readonly (Decimal | undefined)[];
  equity: Equity;
}

/**
 * The last valuation and what it was valued from. The equity rule is a pure function of the
 * journal's parts, the balances and the prices it looks up; the journal reading is the same
 * object while nothing was written (equity-sources.ts), so the same reading with equal balances
 * and equal prices at every market the rule prices (marketsPriced) has the same equity, and the
 * kept one is the answer: a market whose asset the account does not hold can move freely. A fill
 * or a new order is a new journal reading, a moved balance or a moved price of a held asset or of
 * a position's market a different input: each is valued afresh (the markets priced are found
 * again only when the journal reading or the balances changed).
 */
export class KeptValuation {
  private last: Valued | null = null;

  value(equityAsset: string, journal: JournalParts, balances: Record<string, Decimal>, prices: Readonly<Record<string, PriceView>>): Equity {
    const l = this.last;
    const sameInputs = l !== null && l.journal === journal && l.equity.equityAsset === equityAsset && sameAmounts(l.balances, balances);
    if (sameInputs && samePrices(l.markets, l.used, prices)) return l.equity;
    const markets = sameInputs ? l.markets : marketsPriced(equityAsset, journal, balances);
    const used = markets.map((m) => lastOf(prices, m));
    // Only the markets the rule prices: it looks up no other (marketsPriced), so the equity is the
    // one of the whole listing's last prices.
    const priced: Record<string, Decimal> = {};
    markets.forEach((m, i) => {
      const last = used[i];
      if (last !== undefined) priced[m] = last;
    });
    const { held, positions, flex } = journal;
    const equity = equityOf({ equityAsset, balances, held: held.byAsset, positions, flex, prices: priced });
    this.last = { journal, balances, markets, used, equity };
    return equity;
  }
}
