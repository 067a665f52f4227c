/**
 * Public entry of v4-bot's API v4 client: `createApiClient(options)` and everything a caller
 * needs to use it (the gateway port, the domain types of src/model/ and the error classes).
 */
export { createApiClient } from './exchange/api-client.js';
export type { ApiClient, ApiClientOptions, RetryOptions } from './exchange/api-client.js';
export type { EndpointName } from './exchange/endpoints.js';
export { DEFAULT_POOLS, PRIORITY } from './exchange/rate-limits/pools.js';
export type { PoolName, PoolSpec, PoolStatus, RateLimitOverrides, PauseSettings } from './exchange/rate-limits/pools.js';
export type { NonceMode } from './exchange/nonce.js';
export { BatchStoppedError } from './exchange/bulk/outcomes.js';
export type * from './exchange/gateway.js';
export type { Side } from './core/orders.js';
export type * from './model/venue-orders.js';
export type * from './model/fills.js';
export type * from './model/conditional.js';
export type * from './model/flex.js';
export type * from './model/credit.js';
export type * from './model/markets.js';
export type * from './model/nonce.js';
export {
  AmbiguousOutcomeError,
  AuthError,
  BadResponseError,
  BotError,
  ConfigError,
  InvalidOrderError,
  InvalidRequestError,
  NonceError,
  StoreError,
  StrategyError,
  TransientError,
  errorCode,
  errorMessage,
} from './core/errors.js';
export type { AuthKind, FieldErrors, InvalidOrderKind, SafeContext, TransientKind } from './core/errors.js';
export { Decimal, dec } from './core/decimal.js';
export { SystemClock, ManualClock } from './core/clock.js';
export type { Clock } from './core/clock.js';
