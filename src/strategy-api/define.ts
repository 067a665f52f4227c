/**
 * `defineStrategy`: the one thing a plugin module default-exports.
 */
import type { z } from 'zod';
import type { FillView, HistoryRequest, OrderEventView, StrategyContext } from './types.js';
import type { HookResult } from './intents.js';

type Awaitable<T> = T | Promise<T>;

/** A strategy module's definition. `P` is the params type its schema produces. */
export interface StrategyDefinition<P = unknown> {
  /** Module name, for logs (instances are named by their configured id). */
  readonly name: string;
  /**
   * zod schema of the params (usually `z.strictObject` of `p.*` helpers); each instance's params
   * are validated against it at start-up, and a `p.market()` param must name a configured market.
   */
  readonly params: z.ZodType<P>;
  /**
   * Default schedule of `onTick`: a cron expression (6 fields allowed: seconds first), or
   * `candle:<timeframe>` (`candle:1m` ... `candle:1d`) for once per closed candle of the first
   * market `history` declares. Config may override.
   */
  readonly schedule: string;
  /**
   * The candle windows the strategy reads (`ctx.candles`), from its validated params. The engine
   * keeps them in memory, loads them at start (warm-up) and hands each hook these only.
   */
  readonly history?: (params: P) => readonly HistoryRequest[];
  /** Once, after start-up reconciliation and before the first tick. May return intents. */
  readonly init?: (ctx: StrategyContext<P>) => Awaitable<HookResult>;
  /** On each scheduled tick. */
  readonly onTick: (ctx: StrategyContext<P>) => Awaitable<HookResult>;
  /** For each new fill of one of this instance's orders (after reconciliation applied it). */
  readonly onFill?: (ctx: StrategyContext<P>, fill: FillView) => Awaitable<HookResult>;
  /**
   * Once for each of this instance's orders that ends: filled completely, cancelled (an IOC
   * remainder included) or rejected. Delivered once, across restarts too.
   */
  readonly onOrder?: (ctx: StrategyContext<P>, event: OrderEventView) => Awaitable<HookResult>;
  /** At shutdown. Intents returned here are ignored: the daemon accepts no new intents while stopping. */
  readonly onStop?: (ctx: StrategyContext<P>) => Awaitable<void>;
}

const BRAND = Symbol.for('v4-bot.strategy');

/** Marks and freezes a definition so the loader can tell a strategy module from any other. */
export function defineStrategy<P>(definition: StrategyDefinition<P>): StrategyDefinition<P> {
  return Object.freeze({ ...definition, [BRAND]: true });
}

export function isStrategyDefinition(value: unknown): value is StrategyDefinition<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
