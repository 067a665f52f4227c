/**
 * collateral-signal: a momentum entry on a collateral (margin or perpetual) market, always with
 * a protective stop-loss and a take-profit placed atomically with the entry (OTO).
 *
 * Each tick records the price. When flat and with no entry pending, a move of more than
 * `thresholdPct` over the last `lookbackTicks` ticks enters in its direction with a limit at the
 * touch (ask for a buy, bid for a sell), `stopLoss` `stopLossPct` away and `takeProfit`
 * `takeProfitPct` away. An entry not filled within `entryTimeoutMs` is cancelled.
 *
 * Safety rule (docs/failure-modes.md #18): a position is never left without its protective leg. When the
 * instance holds a position whose stop-loss leg is missing (never created, cancelled, or lost) for
 * longer than `protectionGraceMs`, it exits with an immediate-or-cancel order at a price
 * `exitSlippagePct` through the touch. It never re-places a stop on its own: re-arming a stop on
 * a position that may already be closing is how double exits happen.
 *
 * Params: `market`, `amount` (base), `lookbackTicks`, `thresholdPct`, `stopLossPct`,
 * `takeProfitPct`, `entryTimeoutMs` (default 60000), `protectionGraceMs` (default 0),
 * `exitSlippagePct` (default "0.5").
 */
import { Decimal, defineStrategy, intents, p, z, type IntentInput, type PriceView, type StrategyContext } from '../src/strategy-api/index.js';

export const collateralSignalParams = z.strictObject({
  market: p.market(),
  amount: p.positive(),
  lookbackTicks: p.int({ min: 1, max: 1_000 }),
  thresholdPct: p.percent(),
  stopLossPct: p.percent(),
  takeProfitPct: p.percent(),
  entryTimeoutMs: p.int({ min: 1_000 }).default(60_000),
  protectionGraceMs: p.int({ min: 0 }).default(0),
  // prefault: the default is written as the config would write it, and parsed like it.
  exitSlippagePct: p.percent().prefault('0.5'),
});
export type CollateralSignalParams = z.output<typeof collateralSignalParams>;

/** The recorded prices (the strings among them) and `last` after them, the newest `keep` of them: one array made, not three. */
function history(ctx: StrategyContext<CollateralSignalParams>, last: string, keep: number): string[] {
  const h = ctx.state.get('prices');
  const prices: string[] = [];
  if (Array.isArray(h)) for (const x of h) if (typeof x === 'string') prices.push(x);
  prices.push(last);
  return prices.length > keep ? prices.slice(prices.length - keep) : prices;
}

/** Exit when the position lacks its stop-loss beyond the grace period; null when protected. */
function protectionCheck(ctx: StrategyContext<CollateralSignalParams>, base: Decimal, hasStop: boolean): IntentInput[] | null {
  const params = ctx.params;
  if (hasStop) {
    ctx.state.delete('unprotectedSinceMs');
    return null;
  }
  const since = ctx.state.get('unprotectedSinceMs');
  const sinceMs = typeof since === 'number' ? since : ctx.nowMs;
  if (typeof since !== 'number') ctx.state.set('unprotectedSinceMs', sinceMs);
  if (ctx.nowMs - sinceMs < params.protectionGraceMs) return [];
  const exitSide = base.gt(0) ? 'sell' : 'buy';
  if (ctx.openOrders.some((o) => o.market === params.market && o.side === exitSide)) return [];
  const quote = ctx.prices[params.market];
  if (quote === undefined) return [];
  const slip = params.exitSlippagePct.div(100);
  const price = exitSide === 'sell' ? quote.bid.mul(new Decimal(1).minus(slip)) : quote.ask.mul(slip.plus(1));
  ctx.log.warn({ market: params.market, position: base.toFixed() }, 'position without stop-loss: exiting');
  return [intents.placeCollateral({ market: params.market, side: exitSide, amount: base.abs(), price, exit: true, ioc: true })];
}

export function decide(ctx: StrategyContext<CollateralSignalParams>): IntentInput[] {
  const params = ctx.params;
  const quote = ctx.prices[params.market];
  if (quote === undefined) return [];
  const prices = history(ctx, quote.last.toFixed(), params.lookbackTicks + 1);
  ctx.state.set('prices', prices);

  const position = ctx.positions.find((x) => x.market === params.market && !x.base.isZero());
  if (position !== undefined) {
    return protectionCheck(ctx, position.base, position.protection?.stopLoss != null) ?? [];
  }
  ctx.state.delete('unprotectedSinceMs');

  const pending = ctx.openOrders.filter((o) => o.market === params.market);
  if (pending.length > 0) {
    return pending.filter((o) => ctx.nowMs - o.createdMs > params.entryTimeoutMs && o.state !== 'PENDING_CANCEL').map((o) => intents.cancel(o.clientOrderId));
  }
  if (prices.length < params.lookbackTicks + 1) return [];
  const first = new Decimal(prices[0] ?? quote.last.toFixed());
  const change = quote.last.minus(first).div(first).mul(100);
  if (change.abs().lte(params.thresholdPct)) return [];
  return enter(ctx, quote, change);
}

/** The entry in the direction of `change` (percent), with its stop-loss and take-profit. */
function enter(ctx: StrategyContext<CollateralSignalParams>, quote: PriceView, change: Decimal): IntentInput[] {
  const params = ctx.params;
  const side = change.gt(0) ? 'buy' : 'sell';
  const price = side === 'buy' ? quote.ask : quote.bid;
  const sl = params.stopLossPct.div(100);
  const tp = params.takeProfitPct.div(100);
  const one = new Decimal(1);
  ctx.log.info({ market: params.market, side, changePct: change.toFixed(4) }, 'signal: entering');
  return [
    intents.placeCollateral({
      market: params.market,
      side,
      amount: params.amount,
      price,
      stopLoss: side === 'buy' ? price.mul(one.minus(sl)) : price.mul(one.plus(sl)),
      takeProfit: side === 'buy' ? price.mul(one.plus(tp)) : price.mul(one.minus(tp)),
    }),
  ];
}

export default defineStrategy<CollateralSignalParams>({
  name: 'collateral-signal',
  params: collateralSignalParams,
  schedule: '*/15 * * * * *',
  onTick: (ctx) => decide(ctx),
  onFill: (ctx, fill) => {
    ctx.log.info({ side: fill.side, price: fill.price.toFixed(), amount: fill.amount.toFixed() }, 'collateral fill');
    return [];
  },
});
