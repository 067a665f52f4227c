/**
 * How the venue spells markets and assets. One definition, shared by the config schema, the
 * intent checks and the strategy param helpers, so a name one part accepts no other refuses.
 */

/** An asset ticker, e.g. `USDT`. */
export const ASSET_RE = /^[A-Z0-9]{1,16}$/;

/** A market name: two tickers joined by `_`, e.g. `BTC_USDT` (spot) or `BTC_PERP` (perpetual). */
export const MARKET_RE = /^[A-Z0-9]{1,16}_[A-Z0-9]{1,16}$/;
