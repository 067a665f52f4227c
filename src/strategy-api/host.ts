/**
 * The host surface: what the engine and the composition root use to load strategy modules,
 * validate their params, build their snapshots, call their hooks safely and check what they
 * return. Strategies never import this (lint-enforced); their surface is `index.ts`.
 */
export { isStrategyDefinition, type StrategyDefinition } from './define.js';
export {
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
export { buildContext, BufferedState, SETTLED_LISTS, settledList, settledPrices, type StateBackend, type SnapshotData } from './context.js';
export { CandleRequestError, type CandleWindowData } from './candles.js';
export { candleTimeframe, checkHistory, isCandleSchedule, CANDLE_SCHEDULES, MAX_HISTORY_COUNT } from './history.js';
export { HookGuard, isThenable, type HookGuardOptions, type GuardedResult } from './safe-call.js';
export { loadStrategies, resolveStrategyFile, DEFAULT_BOUNDS, type InstanceSpec, type LoadedStrategy, type LoaderOptions, type StrategyHooks } from './loader.js';
export { compileStrategy, type Compiled } from './sandbox/transform.js';
export { sandboxWorkerOptions, workerEntry, type WorkerEntry } from './sandbox/entry-path.js';
export type { SandboxBounds } from './sandbox/load.js';
export type { SandboxInit } from './sandbox/instance.js';
