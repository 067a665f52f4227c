/**
 * One market's rules and its price process: a seeded random walk rounded to the tick, or prices
 * replayed from a CSV file. The simulator has no order book: one price per market per step.
 */
import { readFileSync } from 'node:fs';
import { Decimal, dec, truncateToStep } from '../core/decimal.js';
import { jumpFactors } from './jump.js';
import { shortDouble, type NearSpan } from './near.js';
import type { MarketOptions } from './options.js';
import { PriceRange } from './price-range.js';
import { Prng } from './prng.js';
import type { PriceSpan } from './types.js';

/** A market's live state (rules excluded): what a persisted paper venue continues from (src/simulator/persist/). */
export interface MarketSnapshot {
  available: boolean;
  price: Decimal;
  volumeLeft: Decimal;
  high: Decimal;
  low: Decimal;
  stockVolume: Decimal;
  moneyVolume: Decimal;
  /** Positions of the price, jump and volume streams (Prng.snapshot). */
  prng: { price: number; jump: number; volume: number };
  replayIndex: number;
}

/** Rules and live state of a market. All money fields are Decimal. */
export class Market {
  readonly name: string;
  readonly stock: string;
  readonly money: string;
  readonly isPerp: boolean;
  readonly tick: Decimal;
  readonly step: Decimal;
  readonly minAmount: Decimal;
  readonly minTotal: Decimal;
  readonly makerFee: Decimal;
  readonly takerFee: Decimal;
  readonly leverage: Decimal;
  readonly maxLeverage: number;
  readonly indexName: string | undefined;
  readonly brackets: Readonly<Record<string, number>> | undefined;
  readonly takerDepth: Decimal | undefined;
  available: boolean;
  /** Current price (money per stock), always a positive multiple of the tick. */
  price: Decimal;
  /** Price range (high, low) and traded volume of the current 24 h bucket (futures listing). */
  private readonly range: PriceRange;
  stockVolume: Decimal;
  moneyVolume: Decimal;
  private readonly drift: Decimal;
  private readonly volatility: Decimal;
  private readonly volumePerStep: Decimal;
  private readonly pricePrng: Prng;
  /** Draws of jumps over idle time; per price path, so markets sharing a path jump together. */
  private readonly jumpPrng: Prng;
  private readonly volumePrng: Prng;
  private readonly replay: Decimal[] | undefined;
  /** The tick's decimal places when it is a power of ten (0.01, 1), else null (tickPlacesOf). */
  private readonly tickPlaces: number | null;
  private replayIndex = 0;
  private volume: Decimal;
  /** The step's volume when not yet worked out (deferVolume): most steps never read it. */
  private volumeDue: (() => Decimal) | undefined;

  constructor(opts: MarketOptions, seed: number) {
    const assets = assetsOf(opts);
    this.name = opts.name;
    this.stock = assets.stock;
    this.money = assets.money;
    this.isPerp = assets.isPerp;
    const rules = rulesOf(opts);
    this.tick = rules.tick;
    this.tickPlaces = tickPlacesOf(rules.tick);
    this.step = rules.step;
    this.minAmount = rules.minAmount;
    this.minTotal = rules.minTotal;
    this.makerFee = rules.makerFee;
    this.takerFee = rules.takerFee;
    this.takerDepth = rules.takerDepth;
    this.leverage = rules.leverage;
    this.maxLeverage = rules.maxLeverage;
    this.available = rules.available;
    this.indexName = opts.indexName;
    this.brackets = opts.brackets;
    this.drift = new Decimal(opts.drift ?? '0');
    this.volatility = dec(opts.volatility ?? '0.0005');
    this.volumePerStep = dec(opts.volumePerStep ?? '1');
    const path = opts.pricePath ?? opts.name;
    this.pricePrng = Prng.derive(seed, `price:${path}`);
    this.jumpPrng = Prng.derive(seed, `jump:${path}`);
    this.volumePrng = Prng.derive(seed, `volume:${opts.name}`);
    this.replay = opts.priceFile === undefined ? undefined : readPriceFile(opts.priceFile);
    this.price = this.replay?.[0] ?? dec(opts.startPrice);
    if (this.replay !== undefined) this.replayIndex = 1;
    this.volume = this.volumePerStep;
    this.range = new PriceRange(this.price);
    this.stockVolume = new Decimal(0);
    this.moneyVolume = new Decimal(0);
  }

  get high(): Decimal {
    return this.range.high;
  }

  get low(): Decimal {
    return this.range.low;
  }

  /** Stock volume still fillable by resting orders in the current step. */
  get volumeLeft(): Decimal {
    if (this.volumeDue !== undefined) {
      this.volume = this.volumeDue();
      this.volumeDue = undefined;
    }
    return this.volume;
  }

  set volumeLeft(v: Decimal) {
    this.volumeDue = undefined;
    this.volume = v;
  }

  /** The step's fillable volume is `due()`, worked out when first read (only matching reads it). */
  protected deferVolume(due: () => Decimal): void {
    this.volumeDue = due;
  }

  /** The live state, for persistence. */
  saveState(): MarketSnapshot {
    const { available, price, volumeLeft, high, low, stockVolume, moneyVolume, replayIndex } = this;
    const prng = { price: this.pricePrng.snapshot(), jump: this.jumpPrng.snapshot(), volume: this.volumePrng.snapshot() };
    return { available, price, volumeLeft, high, low, stockVolume, moneyVolume, prng, replayIndex };
  }

  /** Continues from a `saveState()`: the walk goes on where it stopped instead of restarting. */
  restoreState(s: MarketSnapshot): void {
    this.available = s.available;
    this.price = s.price;
    this.volumeLeft = s.volumeLeft;
    this.range.restore(s.high, s.low);
    this.stockVolume = s.stockVolume;
    this.moneyVolume = s.moneyVolume;
    this.replayIndex = s.replayIndex;
    this.pricePrng.restore(s.prng.price);
    this.jumpPrng.restore(s.prng.jump);
    this.volumePrng.restore(s.prng.volume);
  }

  /**
   * The legs of the step `advance` returned, in the order the price went through them; resting
   * orders and OCO legs are matched leg by leg. A random-walk step is one leg.
   */
  pathOf(span: PriceSpan): readonly PriceSpan[] {
    return [span];
  }

  /** The price at the end of `leg` becomes the market's before the leg is matched (one leg: already so). */
  enterLeg(_leg: PriceSpan): void {}

  /**
   * True when the venue may pass a step whose path reaches no resting order (reachOf) without
   * matching its legs one by one (passPath), and, in a step it matches, enter a leg that reaches
   * none without matching it (nearLegOf). False here: the walk's one leg is matched as it is;
   * a CSV market, whose candle has four legs, says true (src/backtest/csv-market.ts).
   */
  canPass(): boolean {
    return false;
  }

  /**
   * A span holding every leg of `pathOf(span)`: its low at most each leg's low, its high at least
   * each leg's high. An order or OCO leg it does not reach is reached by no leg (matching.ts
   * `reached`, conditional.ts `ocoReached`).
   */
  reachOf(span: PriceSpan): PriceSpan {
    return span;
  }

  /**
   * `reachOf(span)`'s ends as doubles (near.ts), for deciding without decimals which resting
   * orders and legs it cannot reach; undefined: not offered (the walk's one leg is matched as it is).
   */
  nearReachOf(_span: PriceSpan): NearSpan | undefined {
    return undefined;
  }

  /**
   * The ends of `leg` (one of `pathOf`'s) as doubles, for telling without decimals that it reaches
   * no resting order or OCO leg; undefined: not offered.
   */
  nearLegOf(_leg: PriceSpan): NearSpan | undefined {
    return undefined;
  }

  /** The step's path entered without matching: price and 24 h range as entering each leg leaves them. */
  passPath(span: PriceSpan): void {
    for (const leg of this.pathOf(span)) this.enterLeg(leg);
  }

  /** Moves the price one step and refreshes the step's fillable volume. */
  advance(): PriceSpan {
    if (this.replay !== undefined) {
      const next = this.replay[this.replayIndex];
      if (next !== undefined) {
        this.price = next;
        this.replayIndex++;
      }
    } else {
      // The random factor is not money: a plain double, fixed to 12 places before it touches Decimal.
      const z = this.pricePrng.normal();
      const change = this.drift.plus(this.volatility.mul(new Decimal(z.toFixed(12))));
      this.setPrice(this.price.mul(change.plus(1)));
    }
    const factor = new Decimal((0.5 + this.volumePrng.next()).toFixed(6));
    this.volumeLeft = truncateToStep(this.volumePerStep.mul(factor), this.step);
    this.trackRange();
    return { low: this.price, high: this.price, jumped: false };
  }

  /**
   * Covers `steps` steps at once (catch-up after idle time): the price moves to the jump's end
   * and the span holds the lowest and highest price on the way. The fillable volume is the
   * steps' mean volume in total; `endJump` brings it back to one step's after matching.
   */
  jump(steps: number): PriceSpan {
    const start = this.price;
    const span = this.replay === undefined ? this.walkJump(start, steps) : this.replayJump(start, steps);
    this.volumeLeft = truncateToStep(this.volumePerStep.mul(steps), this.step);
    this.range.lowerTo(span.low);
    this.range.raiseTo(span.high);
    return span;
  }

  /** After a jump's matching: what is left to fill in the current step is one step's volume at most. */
  endJump(): void {
    this.volumeLeft = Decimal.min(this.volumeLeft, this.volumePerStep);
  }

  private walkJump(start: Decimal, steps: number): PriceSpan {
    const f = jumpFactors(steps, this.drift, this.volatility, this.jumpPrng);
    this.setPrice(start.mul(f.end));
    const low = Decimal.min(this.onTick(start.mul(f.low)), start, this.price);
    const high = Decimal.max(this.onTick(start.mul(f.high)), start, this.price);
    return { low, high, jumped: true };
  }

  private replayJump(start: Decimal, steps: number): PriceSpan {
    const replay = this.replay ?? [];
    const last = Math.min(replay.length, this.replayIndex + steps);
    let low = start;
    let high = start;
    for (; this.replayIndex < last; this.replayIndex++) {
      const p = replay[this.replayIndex] as Decimal;
      if (p.lt(low)) low = p;
      if (p.gt(high)) high = p;
      this.price = p;
    }
    return { low, high, jumped: true };
  }

  /** Sets the price, rounded to the tick, never below one tick. */
  setPrice(p: Decimal): void {
    this.price = this.onTick(p);
    this.trackRange();
  }

  /**
   * The 24 h range as if the price had passed through `p` (rounded to the tick as setPrice does).
   * For a range whose ends are on the tick (a price the market held): `p` inside it rounds inside
   * it, as rounding never passes a multiple of the tick, so only a `p` outside is rounded.
   */
  protected passThrough(p: Decimal): void {
    const near = shortDouble(p);
    if (this.range.above(p, near)) {
      const q = this.onTick(p);
      this.range.raiseTo(q, q === p ? near : shortDouble(q));
    } else if (this.range.below(p, near)) {
      const q = this.onTick(p);
      this.range.lowerTo(q, q === p ? near : shortDouble(q));
    }
  }

  /** `p` rounded to the tick, never below one tick. */
  private onTick(p: Decimal): Decimal {
    if (this.tickPlaces !== null && p.sd(true) <= Decimal.precision) {
      // A multiple of the tick (10^-places) is below it only when it is not positive: no comparison.
      const rounded = onPlaces(p, this.tickPlaces);
      return rounded.isZero() || rounded.isNeg() ? this.tick : rounded;
    }
    const rounded = p.div(this.tick).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).mul(this.tick);
    return rounded.lt(this.tick) ? this.tick : rounded;
  }

  /** Starts a new 24 h statistics bucket. */
  resetDay(): void {
    this.range.reset(this.price);
    this.stockVolume = new Decimal(0);
    this.moneyVolume = new Decimal(0);
  }

  recordTrade(amount: Decimal, price: Decimal): void {
    this.stockVolume = this.stockVolume.plus(amount);
    this.moneyVolume = this.moneyVolume.plus(amount.mul(price));
  }

  private trackRange(): void {
    const near = shortDouble(this.price);
    this.range.raiseTo(this.price, near);
    this.range.lowerTo(this.price, near);
  }
}

/**
 * The decimal places of a power-of-ten tick, else null. Rounding to such a tick (`p / tick` to a
 * whole number, half to even, times the tick) is rounding `p` to these places, with the same value
 * whenever `p / tick` is exact (at most the context's precision in significant digits): one
 * operation instead of three, and none for a price already on the tick (every step sets one).
 */
export function tickPlacesOf(tick: Decimal): number | null {
  const places = tick.decimalPlaces();
  return tick.eq(new Decimal(10).pow(-places)) ? places : null;
}

/** `p` rounded half to even to `places` decimal places; `p` itself when it has no more. */
function onPlaces(p: Decimal, places: number): Decimal {
  return p.decimalPlaces() <= places ? p : p.toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN);
}

/** Stock and money assets from the name `<STOCK>_<MONEY>` unless given; a `_PERP` market settles in USDT. */
function assetsOf(opts: MarketOptions): { stock: string; money: string; isPerp: boolean } {
  const [stock, money] = opts.name.split('_');
  if (stock === undefined || money === undefined || stock === '') throw new RangeError(`bad market name ${opts.name}`);
  const isPerp = money === 'PERP';
  return { stock: opts.stock ?? stock, money: opts.money ?? (isPerp ? 'USDT' : money), isPerp };
}

/** Trading rules with the defaults documented in options.ts. */
function rulesOf(opts: MarketOptions) {
  return {
    tick: dec(opts.tick),
    step: dec(opts.step),
    minAmount: dec(opts.minAmount ?? opts.step),
    minTotal: dec(opts.minTotal ?? '5.05'),
    makerFee: dec(opts.makerFee ?? '0.001'),
    takerFee: dec(opts.takerFee ?? '0.001'),
    takerDepth: opts.takerDepth === undefined ? undefined : dec(opts.takerDepth),
    leverage: new Decimal(opts.leverage ?? 10),
    maxLeverage: opts.maxLeverage ?? 100,
    available: opts.available ?? true,
  };
}

function readPriceFile(file: string): Decimal[] {
  const out: Decimal[] = [];
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const cell = line.split(',').at(-1)?.trim() ?? '';
    if (cell === '') continue;
    const d = /^\d+(\.\d+)?$/.test(cell) ? dec(cell) : undefined;
    if (d === undefined) {
      if (out.length === 0) continue; // header line
      throw new RangeError(`${file}: not a price: ${cell.slice(0, 30)}`);
    }
    out.push(d);
  }
  if (out.length === 0) throw new RangeError(`${file}: no prices`);
  return out;
}
