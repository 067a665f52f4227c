/**
 * The venue data strategies see in their snapshot: prices from the futures listing and the main
 * balances, refreshed at most once per `maxAgeMs` and one refresh at a time.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import { pairName, type FuturesMarket } from '../model/markets.js';
import { settledPrices, type PriceView } from '../strategy-api/host.js';
import { copiedView, decimalCopy } from '../strategy-api/frozen-views.js';

/** Prices and balances of one read, handed out as they are: nothing changes them (a read makes new ones). */
export type MarketReading = Readonly<{ prices: Record<string, PriceView>; balances: Record<string, Decimal> }>;

const RESOLVED: Promise<void> = Promise.resolve();

/** Latest prices and balances, refreshed at most every `maxAgeMs`; one refresh at a time. */
export class MarketData {
  private prices: Record<string, PriceView> = {};
  private balances: Record<string, Decimal> = {};
  /** The listing the prices were made from. */
  private listing: readonly FuturesMarket[] = [];
  /** The last read's prices and balances in one object, made once per read (not once per snapshot). */
  private reading: MarketReading = Object.freeze({ prices: this.prices, balances: this.balances });
  private atMs = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  /** The last reading's prices and balances as strategies are handed them, by the objects they copy. */
  private handed: { prices?: [MarketReading['prices'], MarketReading['prices']]; balances?: [MarketReading['balances'], MarketReading['balances']]; reading?: [MarketReading, MarketReading] } = {};
  /** The venue's answers made at once (in process: `marketsNow`, `balancesNow`); undefined: requests. */
  private readonly now: { markets: () => FuturesMarket[]; balances: () => Map<string, Decimal> } | undefined = undefined;

  constructor(
    private readonly gateway: Pick<ExchangeGateway, 'markets' | 'balances' | 'marketsNow' | 'balancesNow'>,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {
    const { marketsNow, balancesNow } = gateway;
    if (marketsNow === undefined || balancesNow === undefined) return;
    this.now = { markets: () => marketsNow.call(gateway), balances: () => balancesNow.call(gateway) };
  }

  /** What `get()` would answer without reading the venue, or undefined when it would read it. */
  current(): MarketReading | undefined {
    return this.stale() ? undefined : this.reading;
  }

  /**
   * `r` as a hook is handed it: the same prices and balances with decimals of their own, so that
   * nothing a strategy in the engine's thread does to one reaches what the engine computes with
   * (the equity check reads `r` itself; src/strategy-api/frozen-views.ts). Made once per read: the
   * prices when they changed, the balances when they did.
   */
  forStrategies(r: MarketReading): MarketReading {
    const h = this.handed;
    if (h.reading?.[0] === r) return h.reading[1];
    if (h.prices?.[0] !== r.prices) h.prices = [r.prices, strategyPrices(r.prices)];
    if (h.balances?.[0] !== r.balances) h.balances = [r.balances, copiedView(r.balances)];
    const copy: MarketReading = Object.freeze({ prices: h.prices[1], balances: h.balances[1] });
    h.reading = [r, copy];
    return copy;
  }

  private stale(): boolean {
    return this.clock.now() - this.atMs > this.maxAgeMs;
  }

  async get(): Promise<MarketReading> {
    if (this.stale()) await this.start();
    return this.reading;
  }

  /**
   * Prices and balances requested after this call began (never a cached or already running read):
   * the equity check pairs them with the journal read just before.
   */
  fresh(): Promise<MarketReading> {
    // A venue that answers at once, with no read under way: read now, without a read's turns.
    if (this.inFlight !== undefined || this.now === undefined) return this.freshAfter();
    try {
      this.readNow(this.now);
      return Promise.resolve(this.reading);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  private async freshAfter(): Promise<MarketReading> {
    if (this.inFlight !== undefined) await this.inFlight.catch(() => undefined);
    await this.start();
    return this.reading;
  }

  /** The running refresh, or a new one; it is forgotten once it settles, whatever its outcome. */
  private start(): Promise<void> {
    if (this.inFlight === undefined && this.now !== undefined) {
      try {
        this.readNow(this.now);
        return RESOLVED;
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    // One `then` rather than `finally`, whose callback's result is awaited in further promises:
    // the same outcome (the reason of a failed read passed on as it is), in fewer microtasks.
    return (this.inFlight ??= this.refresh().then(this.settled, this.failed));
  }

  /** A read of a venue that answers at once: the listing first, then the balances, as `refresh` asks. */
  private readNow(now: NonNullable<MarketData['now']>): void {
    const futures = now.markets();
    this.apply(futures, now.balances());
  }

  private readonly settled = (): void => {
    this.inFlight = undefined;
  };

  private readonly failed = (err: unknown): never => {
    this.inFlight = undefined;
    throw err;
  };

  private async refresh(): Promise<void> {
    const [futures, balances] = await Promise.all([this.gateway.markets(), this.gateway.balances()]);
    this.apply(futures, balances);
  }

  /** Takes a read's listing and balances as the current reading. */
  private apply(futures: readonly FuturesMarket[], balances: ReadonlyMap<string, Decimal>): void {
    // The very same entries as the last listing (a venue that keeps its entries,
    // in-process-futures.ts): the same prices, kept as the same object, as the balances below.
    if (!sameObjects(this.listing, futures)) this.prices = pricesFromListing(futures);
    this.listing = futures;
    // The same decimals as the last read (a venue that keeps its answer, in-process-reads.ts): the
    // same object, so what is kept per object downstream (the valuation, the contexts' copies) holds.
    // Frozen: the contexts hand it on as it is (src/strategy-api/context.ts).
    if (!sameDecimals(this.balances, balances)) this.balances = Object.freeze(Object.fromEntries(balances));
    this.reading = Object.freeze({ prices: this.prices, balances: this.balances });
    this.atMs = this.clock.now();
  }
}

/**
 * The same entries, the very same frozen objects, in the same order: a frozen entry cannot have
 * changed since (an entry a gateway hands out unfrozen may have, so it is never taken as the same).
 */
function sameObjects(kept: readonly FuturesMarket[], now: readonly FuturesMarket[]): boolean {
  if (kept.length !== now.length || now.length === 0) return false;
  for (let i = 0; i < now.length; i++) if (kept[i] !== now[i] || !Object.isFrozen(now[i])) return false;
  return true;
}

/** The same assets in the same order, each holding the very same decimal object. */
function sameDecimals(kept: Readonly<Record<string, Decimal>>, now: ReadonlyMap<string, Decimal>): boolean {
  const keys = Object.keys(kept);
  if (keys.length !== now.size) return false;
  let i = 0;
  for (const [asset, amount] of now) {
    const k = keys[i++] as string;
    if (k !== asset || kept[k] !== amount) return false;
  }
  return true;
}

/**
 * A market's prices as the engine reads them (a new object each time: each key has its own), frozen:
 * strategies are handed copies (`MarketData.forStrategies`).
 */
function priceView(f: FuturesMarket): PriceView {
  const view: PriceView = { ticker: f.tickerId, base: f.base, quote: f.quote, last: f.lastPrice, bid: f.bid, ask: f.ask };
  if (f.indexPrice !== undefined) view.index = f.indexPrice;
  return Object.freeze(view);
}


/** Prices by ticker and by `BASE_QUOTE` (the perpetual's price is the reference of its spot market). */
export function pricesFromListing(futures: readonly FuturesMarket[]): Readonly<Record<string, PriceView>> {
  const out: Record<string, PriceView> = {};
  for (const f of futures) {
    out[f.tickerId] = priceView(f);
    const spot = pairName(f.base, f.quote);
    if (out[spot] === undefined) out[spot] = priceView(f);
  }
  return Object.freeze(out);
}

/** A price view with decimals of its own, frozen; its fields named (a generic copy cost a few µs a candle). */
function priceCopy(v: PriceView): PriceView {
  const view: PriceView = { ticker: v.ticker, base: v.base, quote: v.quote, last: decimalCopy(v.last), bid: decimalCopy(v.bid), ask: decimalCopy(v.ask) };
  if (v.index !== undefined) view.index = decimalCopy(v.index);
  return Object.freeze(view);
}

/** Prices as strategies are handed them: each view a frozen copy with its own decimals, the map settled for the contexts. */
function strategyPrices(prices: Readonly<Record<string, PriceView>>): Readonly<Record<string, PriceView>> {
  const out: Record<string, PriceView> = {};
  for (const k in prices) out[k] = priceCopy(prices[k] as PriceView);
  // Frozen through and through (each view frozen where made): the contexts take it as it is, unlooked.
  return settledPrices(out);
}