/**
 * ema-cross: a long-only EMA crossover on a spot market, with an RSI filter, on closed 15-minute
 * candles (docs/strategies.md § Candles).
 *
 * Once per closed 15-minute candle (`schedule: 'candle:15m'`) it reads the declared window of
 * closes (`ctx.candles`) and updates a fast EMA, a slow EMA and an RSI with the candles it has not
 * seen yet (the indicators live in the instance's worker and are rebuilt from the window when the
 * worker is new). When the fast EMA crosses above the slow one and the RSI is below `rsiMax` (not
 * overbought) it buys `amount` at the ask; when the fast EMA crosses below the slow one, or the RSI
 * rises above `rsiExit`, it sells what it holds at the bid. An order left open for a candle is
 * cancelled. During warm-up (fewer candles than declared: `ctx.history`) it does nothing.
 *
 * The decision is `decide` (pure: indicator values and the position in, an action out), tested
 * on its own in test/unit/strategies/ema-cross.test.ts.
 *
 * Params: `market`, `amount` (base), `fast` (default 9), `slow` (default 21), `rsiPeriod`
 * (default 14), `rsiMax` (default 70), `rsiExit` (default 80).
 */
import { Decimal, defineStrategy, indicators, intents, p, z, type CandleView, type Indicator, type IntentInput, type StrategyContext } from '../src/strategy-api/index.js';

const TIMEFRAME = '15m';

export const emaCrossParams = z
  .strictObject({
    market: p.market(),
    amount: p.positive(),
    fast: p.int({ min: 2, max: 200 }).default(9),
    slow: p.int({ min: 3, max: 500 }).default(21),
    rsiPeriod: p.int({ min: 2, max: 100 }).default(14),
    rsiMax: p.percent().prefault('70'),
    rsiExit: p.percent().prefault('80'),
  })
  .refine((o) => o.fast < o.slow, { message: 'fast must be shorter than slow', path: ['fast'] });
export type EmaCrossParams = z.output<typeof emaCrossParams>;

/** Candles the window holds: enough for the slow EMA to settle (three periods) and the RSI. */
export const historyCount = (p: EmaCrossParams): number => Math.max(3 * p.slow, 3 * (p.rsiPeriod + 1));

/** What one closed candle says: the EMAs before and after it, and the RSI after it. */
export interface Signals {
  fastBefore: Decimal;
  slowBefore: Decimal;
  fast: Decimal;
  slow: Decimal;
  rsi: Decimal;
}

export type Action = 'buy' | 'sell' | 'hold';

/**
 * The decision, pure: buy on a cross up that is not overbought while flat; sell what is held on a
 * cross down or when the RSI passes `rsiExit`; hold otherwise.
 */
export function decide(s: Signals, holding: boolean, params: Pick<EmaCrossParams, 'rsiMax' | 'rsiExit'>): Action {
  const crossedUp = s.fastBefore.lte(s.slowBefore) && s.fast.gt(s.slow);
  const crossedDown = s.fastBefore.gte(s.slowBefore) && s.fast.lt(s.slow);
  if (holding) return crossedDown || s.rsi.gt(params.rsiExit) ? 'sell' : 'hold';
  return crossedUp && s.rsi.lt(params.rsiMax) ? 'buy' : 'hold';
}

/** The instance's indicators in this worker, and the last candle they took. */
interface Tracker {
  fast: Indicator<Decimal, Decimal>;
  slow: Indicator<Decimal, Decimal>;
  rsi: Indicator<Decimal, Decimal>;
  lastOpenMs: number;
  /** The EMAs before the last candle. */
  before: { fast: Decimal; slow: Decimal } | undefined;
}

const trackers = new Map<string, Tracker>();

function fresh(params: EmaCrossParams): Tracker {
  return { fast: indicators.ema(params.fast), slow: indicators.ema(params.slow), rsi: indicators.rsi(params.rsiPeriod), lastOpenMs: -1, before: undefined };
}

/**
 * Feeds the candles the tracker has not seen (all of them for a new worker); the signals after
 * the newest, once settled. Undefined when no candle was new: a signal is acted on once.
 */
export function track(t: Tracker, candles: readonly CandleView[]): Signals | undefined {
  const seen = t.lastOpenMs;
  for (const c of candles) {
    if (c.openMs <= t.lastOpenMs) continue;
    const fastBefore = t.fast.value;
    const slowBefore = t.slow.value;
    t.before = fastBefore === undefined || slowBefore === undefined ? undefined : { fast: fastBefore, slow: slowBefore };
    t.fast.update(c.close);
    t.slow.update(c.close);
    t.rsi.update(c.close);
    t.lastOpenMs = c.openMs;
  }
  const [fast, slow, rsi] = [t.fast.value, t.slow.value, t.rsi.value];
  if (t.lastOpenMs === seen || t.before === undefined || fast === undefined || slow === undefined || rsi === undefined) return undefined;
  return { fastBefore: t.before.fast, slowBefore: t.before.slow, fast, slow, rsi };
}

function act(ctx: StrategyContext<EmaCrossParams>, action: Action, held: Decimal): IntentInput[] {
  const { market, amount } = ctx.params;
  const quote = ctx.prices[market];
  if (action === 'hold' || quote === undefined) return [];
  ctx.log.info({ market, action }, `ema-cross: ${action}`);
  if (action === 'buy') return [intents.placeLimits([{ market, side: 'buy', amount, price: quote.ask }])];
  return [intents.placeLimits([{ market, side: 'sell', amount: held, price: quote.bid }])];
}

export function onCandle(ctx: StrategyContext<EmaCrossParams>): IntentInput[] {
  const { market } = ctx.params;
  const open = ctx.openOrders.filter((o) => o.market === market);
  // An order still open a candle later missed its price: cancel it and decide afresh next candle.
  if (open.length > 0) return open.filter((o) => o.state !== 'PENDING_CANCEL').map((o) => intents.cancel(o.clientOrderId));
  if (ctx.history.some((h) => !h.ready)) return [];
  const tracker = trackers.get(ctx.instanceId) ?? fresh(ctx.params);
  trackers.set(ctx.instanceId, tracker);
  const signals = track(tracker, ctx.candles(market, TIMEFRAME, historyCount(ctx.params)));
  if (signals === undefined) return [];
  const held = ctx.positions.find((x) => x.market === market)?.base ?? new Decimal(0);
  return act(ctx, decide(signals, held.gte(ctx.params.amount.div(2)), ctx.params), held);
}

export default defineStrategy<EmaCrossParams>({
  name: 'ema-cross',
  params: emaCrossParams,
  schedule: `candle:${TIMEFRAME}`,
  history: (params) => [{ market: params.market, timeframe: TIMEFRAME, count: historyCount(params) }],
  onTick: (ctx) => onCandle(ctx),
});
