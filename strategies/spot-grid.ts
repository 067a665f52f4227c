/**
 * spot-grid: keeps a ladder of limit orders around a centre price and re-quotes as it fills.
 *
 * Levels sit at `centre × (1 + k × spacingPct / 100)` for k = -levels..levels. On every tick and
 * after every fill, each level gets one order: a buy when the level is below the current price, a
 * sell when above; the level nearest the price stays empty (that gap is the grid's spread). When
 * a buy fills the price is near that level, so the empty level above it now gets a sell: the
 * classic "buy low, sell one step higher". New orders go out as one bulk request.
 *
 * When the price leaves the ladder by more than one spacing, the grid cancels its orders in that
 * market and re-centres on the next tick.
 *
 * The reference price is the futures listing's price for the market (docs/architecture.md §8.9: strategies see
 * prices from the futures listing). Amounts and prices are rounded to the market rules by the
 * engine; the risk gate bounds notional, open orders, position and the instance budget.
 *
 * Params: `market`, `levels` (per side, 1..20), `spacingPct` (decimal string, per level),
 * `orderAmount` (base per order, decimal string), `postOnly` (default true).
 */
import { Decimal, defineStrategy, intents, p, z, type IntentInput, type OrderView, type Side, type StrategyContext } from '../src/strategy-api/index.js';

export const spotGridParams = z.strictObject({
  market: p.market(),
  levels: p.int({ min: 1, max: 20 }),
  spacingPct: p.percent({ lt: '50' }),
  orderAmount: p.positive(),
  postOnly: z.boolean().default(true),
});
export type SpotGridParams = z.output<typeof spotGridParams>;

/** Level prices for `centre`, ascending (k = -levels..levels). */
export function ladder(centre: Decimal, levels: number, spacingPct: Decimal): Decimal[] {
  const step = spacingPct.div(100);
  const out: Decimal[] = [];
  for (let k = -levels; k <= levels; k++) out.push(centre.mul(step.mul(k).plus(1)));
  return out;
}

/** A ladder and the bounds a tick compares against it: they depend on the centre and the params only. */
interface Rungs {
  params: SpotGridParams;
  centreText: string;
  centre: Decimal;
  levels: Decimal[];
  halfGap: Decimal;
  /** The price range past which the grid re-centres. */
  low: Decimal;
  high: Decimal;
  /** Per open order (the engine hands the same frozen view while the order is unchanged): the levels its price takes. */
  takes: WeakMap<object, readonly boolean[]>;
  /** Per frozen open-order list (the engine hands the same one while no order changed): the levels its orders take. */
  taken: WeakMap<object, readonly boolean[]>;
}

/** Per instance, the rungs of its last centre: the centre moves on a re-centring only, the price every tick. */
const kept = new Map<string, Rungs>();

function rungsOf(ctx: StrategyContext<SpotGridParams>, centreText: string, centre: () => Decimal): Rungs {
  const params = ctx.params;
  const k = kept.get(ctx.instanceId);
  if (k !== undefined && k.params === params && k.centreText === centreText) return k;
  const c = centre();
  const spacing = params.spacingPct;
  const levels = ladder(c, params.levels, spacing);
  const outside = c.mul(spacing).div(100);
  const low = (levels[0] ?? c).minus(outside);
  const high = (levels[levels.length - 1] ?? c).plus(outside);
  const rungs = { params, centreText, centre: c, levels, halfGap: c.mul(spacing).div(200), low, high, takes: new WeakMap(), taken: new WeakMap() };
  kept.set(ctx.instanceId, rungs);
  return rungs;
}

/** Which levels an order's price takes (within half a gap): the same answer for the same order and ladder. */
function levelsTaken(rungs: Rungs, order: { price: Decimal }): readonly boolean[] {
  let taken = rungs.takes.get(order);
  if (taken === undefined) {
    taken = rungs.levels.map((lvl) => order.price.minus(lvl).abs().lte(rungs.halfGap));
    rungs.takes.set(order, taken);
  }
  return taken;
}

/**
 * Which levels the grid's orders take: those in its market not being cancelled. A frozen list (the
 * engine's) cannot change, so its answer is kept with it: a quiet tick looks once, not once per
 * level and order.
 */
function takenLevels(rungs: Rungs, open: readonly OrderView[]): readonly boolean[] {
  const kept = rungs.taken.get(open);
  if (kept !== undefined) return kept;
  const taken = rungs.levels.map(() => false);
  for (const o of open) {
    if (o.market !== rungs.params.market || o.state === 'PENDING_CANCEL') continue;
    const takes = levelsTaken(rungs, o);
    for (let i = 0; i < taken.length; i++) if (takes[i] === true) taken[i] = true;
  }
  if (Object.isFrozen(open)) rungs.taken.set(open, taken);
  return taken;
}

/**
 * The level nearest the price, the lowest of equally near ones. The levels ascend, so the
 * distances fall up to the first level at or above the price and rise after it: only the two
 * levels around the price need a distance (and, where rounding made two distances equal, the
 * equal ones below). The same answer as measuring every level.
 */
export function nearestLevel(levels: readonly Decimal[], price: Decimal): number {
  const distance = (i: number): Decimal => (levels[i] as Decimal).minus(price).abs();
  const above = levels.findIndex((lvl) => lvl.gte(price));
  if (above === 0 || levels.length === 0) return 0;
  let nearest = above < 0 ? levels.length - 1 : above - 1;
  const least = distance(nearest);
  if (above > 0 && distance(above).lt(least)) return above;
  while (nearest > 0 && distance(nearest - 1).eq(least)) nearest--;
  return nearest;
}

/** The intents that bring the ladder in line with the open orders and the price. */
export function maintainGrid(ctx: StrategyContext<SpotGridParams>): IntentInput[] {
  const params = ctx.params;
  const price = ctx.prices[params.market]?.last;
  if (price === undefined) {
    ctx.log.warn({ market: params.market }, 'no price for the grid market; skipping');
    return [];
  }
  const storedCentre = ctx.state.get('centre');
  const stored = typeof storedCentre === 'string';
  const centreText = stored ? storedCentre : price.toFixed();
  if (!stored) ctx.state.set('centre', centreText);
  const rungs = rungsOf(ctx, centreText, () => (stored ? new Decimal(centreText) : price));
  const { centre, levels, low, high } = rungs;
  if (price.lt(low) || price.gt(high)) {
    ctx.log.info({ market: params.market, centre: centre.toFixed(), price: price.toFixed() }, 're-centring the grid');
    ctx.state.set('centre', price.toFixed());
    return [intents.cancelAll(params.market)];
  }

  const taken = takenLevels(rungs, ctx.openOrders);
  const nearest = nearestLevel(levels, price);
  const orders: { market: string; side: Side; amount: Decimal; price: Decimal; postOnly: boolean }[] = [];
  levels.forEach((lvl, i) => {
    if (i === nearest || taken[i] === true) return;
    orders.push({ market: params.market, side: lvl.lt(price) ? 'buy' : 'sell', amount: params.orderAmount, price: lvl, postOnly: params.postOnly });
  });
  return orders.length === 0 ? [] : [intents.placeLimits(orders)];
}

export default defineStrategy<SpotGridParams>({
  name: 'spot-grid',
  params: spotGridParams,
  schedule: '*/10 * * * * *',
  onTick: (ctx) => maintainGrid(ctx),
  onFill: (ctx, fill) => {
    const fills = ctx.state.get('fills');
    ctx.state.set('fills', (typeof fills === 'number' ? fills : 0) + 1);
    ctx.log.info({ side: fill.side, price: fill.price.toFixed(), amount: fill.amount.toFixed() }, 'grid fill');
    return maintainGrid(ctx);
  },
});
