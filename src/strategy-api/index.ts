/**
 * The author surface: the only thing a strategy module imports (lint-enforced). Everything a
 * plugin needs is here (the definition, intent builders, the snapshot types, Decimal and its
 * money helpers, zod and the param helpers) and nothing of how the engine runs it: that side is
 * `host.ts`.
 */
export { Decimal, ZERO, dec, sum, truncateToStep, roundToTick, isMultipleOf } from '../core/decimal.js';
export { z } from 'zod';
export { p, type DecimalBounds, type IntBounds } from './params.js';
export { defineStrategy, type StrategyDefinition } from './define.js';
export { intents, type IntentInput, type HookResult } from './intents.js';
export { indicators, Indicator, type HighLowClose, type MacdValue, type BandsValue } from './indicators.js';
export type {
  Side,
  OrderState,
  PriceView,
  OrderView,
  ProtectionView,
  PositionView,
  FillView,
  OrderEventView,
  CandleView,
  HistoryRequest,
  HistoryView,
  Timeframe,
  FlexInvestmentView,
  FlexView,
  JsonValue,
  StrategyState,
  StrategyLogger,
  StrategyContext,
} from './types.js';
