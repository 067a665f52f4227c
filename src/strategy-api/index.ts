/**
 * The strategy API: the only thing a strategy module imports (lint-enforced). Money helpers and
 * zod are re-exported so a plugin needs nothing else.
 */
export { Decimal, ZERO, dec, tryDec, toWire, truncateToStep, roundToTick, isMultipleOf, sum } from '../core/decimal.js';
export { z } from 'zod';
export { defineStrategy, isStrategyDefinition, type StrategyDefinition } from './define.js';
export {
  intents,
  parseIntents,
  intentSchema,
  MAX_INTENTS_PER_CALL,
  type Intent,
  type IntentInput,
  type HookResult,
  type LimitOrderIntent,
  type PlaceLimitsIntent,
  type PlaceCollateralIntent,
  type CancelIntent,
  type CancelAllIntent,
  type CloseFlexIntent,
} from './intents.js';
export type * from './types.js';
export { buildContext, BufferedState, type StateBackend, type SnapshotData } from './context.js';
export { HookGuard, type HookGuardOptions, type GuardedResult } from './safe-call.js';
export { loadStrategies, resolveStrategyFile, type InstanceSpec, type LoadedStrategy, type LoaderOptions } from './loader.js';
