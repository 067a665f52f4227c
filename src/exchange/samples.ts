/**
 * Venue replies as the service sends them, one per shape the parsers (parse.ts) and the error
 * table (errors.ts) map: from the spec's field tables and the bodies quoted in docs/live-service.md.
 * They document the mapping where it is read, and tests parse every one of them and mutate them
 * to fuzz the client (test/unit/exchange/samples.test.ts, reply-fuzz tests).
 */

/** An Order (docs/api-v4.md §2.1; bulk result, collateral, cancel). Live status spellings: `OPEN`, `CANCELED`. */
export const ORDER_SAMPLE = {
  orderId: 4180284841,
  clientOrderId: 'bot-1',
  market: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  timestamp: 1595792396.165973,
  dealMoney: '0',
  dealStock: '0',
  amount: '0.01',
  left: '0.01',
  dealFee: '0',
  price: '40000',
  postOnly: false,
  ioc: false,
  status: 'NEW',
  stp: 'no',
  positionSide: 'BOTH',
  rpi: false,
} as const;

/** An executed deal (docs/api-v4.md §2.6); `feeAsset` may be absent on older deals. */
export const DEAL_SAMPLE = {
  id: 160305483,
  clientOrderId: 'bot-1',
  time: 1594667731.724403,
  side: 'sell',
  role: 2,
  amount: '0.000076',
  price: '9264.21',
  deal: '0.70407996',
  fee: '0.00070407996',
  orderId: 13963704,
  feeAsset: 'USDT',
} as const;

const OCO_LEG = {
  orderId: 11,
  clientOrderId: '',
  market: 'BTC_USDT',
  side: 'sell',
  timestamp: 1700000000.5,
  dealMoney: '0',
  dealStock: '0',
  amount: '1',
  left: '1',
  dealFee: '0',
  status: 'NEW',
  stp: 'no',
  takerFee: '0.001',
  makerFee: '0.001',
  post_only: false,
  mtime: 1700000001.25,
} as const;

/** Reply samples per endpoint (and per variant the client accepts). */
export const REPLY_SAMPLES = {
  /** Spec 4.1. */
  ping: ['pong'],
  /** Spec 2.11 + docs/live-service.md §7 (numbers may arrive as strings or numbers, extra funding fields). */
  futures: {
    success: true,
    message: null,
    result: [
      {
        ticker_id: 'BTC_PERP', stock_currency: 'BTC', money_currency: 'USDT', last_price: '24005.5', stock_volume: '1.5',
        money_volume: '36000.25', bid: '24005.4', ask: 24005.6, high: '24500', low: '23000', product_type: 'Perpetual',
        open_interest: '12.5', index_price: '24001.1', index_name: 'BTC', index_currency: 'BTC', funding_rate: '-0.0001',
        next_funding_rate_timestamp: '1700003600000', brackets: { '1': 0, '20': 10000 }, max_leverage: 100,
        funding_interval_minutes: 480, funding_cap: '0.003', funding_floor: '-0.003',
      },
    ],
  },
  /** Service-notes 3: array in request order, both keys present. */
  bulk: [
    { result: { ...ORDER_SAMPLE, clientOrderId: 'b-0' }, error: null },
    { result: null, error: { code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } } },
  ],
  /** Spec 4.4 with stopLoss/takeProfit: `oto` echoes the prices sent. */
  collateral: { ...ORDER_SAMPLE, market: 'BTC_PERP', clientOrderId: 'c-1', oto: { otoId: 777, stopLoss: '39000', takeProfit: '45000' } },
  /** Spec 4.7, live spelling. */
  cancel: { ...ORDER_SAMPLE, status: 'CANCELED' },
  /** Spec 2.4/2.5: snake_case OCO and an OTO record. */
  conditional: {
    limit: 100,
    offset: 0,
    total: 2,
    records: [
      {
        id: 9,
        type: 'oco',
        stop_loss: { ...OCO_LEG, type: 'stop limit', price: '39000', activation_price: '39500', activation_condition: 'lte', activated: 0 },
        take_profit: { ...OCO_LEG, orderId: 12, type: 'limit', price: '45000' },
      },
      {
        id: 777,
        type: 'oto',
        stopLossPrice: '39000',
        takeProfitPrice: '45000',
        conditionalOrder: { ...ORDER_SAMPLE, market: 'BTC_PERP', clientOrderId: 'c-1', takerFee: '0.0005', makerFee: '0.0002' },
      },
    ],
  },
  /** Service-notes 5: the live camelCase OCO, `margin` leg types, status `OPEN`, no fee rates. */
  conditionalLive: {
    limit: 100,
    offset: 0,
    total: 1,
    records: [
      {
        id: 10,
        type: 'oco',
        stopLoss: {
          orderId: 21, clientOrderId: 'x', market: 'BTC_PERP', side: 'buy', type: 'margin stop limit', timestamp: 1700000000,
          dealMoney: '0', dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '41000', status: 'OPEN', postOnly: false,
          activationPrice: '40500', activationCondition: 'gte', activated: 1,
        },
        takeProfit: {
          orderId: 22, clientOrderId: 'x', market: 'BTC_PERP', side: 'buy', type: 'margin limit', timestamp: 1700000000,
          dealMoney: '0', dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '38000', status: 'OPEN',
        },
      },
    ],
  },
  /** Service-notes 4: with `market`, a flat array. */
  executedHistoryFlat: [DEAL_SAMPLE, { ...DEAL_SAMPLE, id: 160305484, role: 1, feeAsset: undefined }],
  /** Spec 4.6: without `market`, keyed by market. */
  executedHistoryKeyed: { BTC_USDT: [DEAL_SAMPLE], ETH_USDT: [{ ...DEAL_SAMPLE, id: 3 }] },
  /** Spec 2.8. */
  balanceMap: { BTC: { main_balance: '0.5' }, USDT: { main_balance: '1000.25' } },
  /** Service-notes 6: with `ticker`, a single object. */
  balanceOne: { main_balance: '0.5' },
  /** Spec 2.7; the transaction id key may be `transaction_id` (docs/live-service.md §6). */
  flexHistory: {
    data: [
      { createdAt: 1700000000, planId: 'p-1', investmentId: 'i-1', currency: 'USDT', amount: '1.25', actionType: 4, transactionId: 't-1' },
      { createdAt: 1700000000, planId: 'p-1', investmentId: 'i-1', currency: 'USDT', amount: '100', actionType: 1, transaction_id: 't-2' },
    ],
    limit: 50,
    offset: 0,
  },
  /** Service-notes 6: HTTP 201. */
  flexClose: { data: { transactionId: 'tx-1' } },
  /** Spec 2.9. */
  creditLine: {
    asset: 'USDT', amount: '1000', totalFunding: '1500', currentLtv: '0.5', initialLtv: '0.6', marginCallLtv: '0.8',
    liquidationLtv: '0.9', createdAt: 1700000000,
  },
} as const;

/** What an error reply maps to: the error class and, for order refusals, the kind. */
export interface ErrorSample {
  status: number;
  body: string;
  /** `true` for the order endpoints (bulk, collateral, cancel). */
  orderEndpoint: boolean;
  expected: { class: 'InvalidOrderError' | 'InvalidRequestError' | 'AuthError' | 'NonceError' | 'TransientError'; kind?: string };
}

/** Error replies (spec 7, docs/live-service.md §1, 2, 3, 6, 7) and their classes (errors.ts). */
export const ERROR_SAMPLES: readonly ErrorSample[] = [
  { status: 422, body: '{"code":30,"message":"Validation failed","errors":{"amount":["Amount is less than 0.001"]}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'validation' } },
  { status: 422, body: '{"code":30,"message":"Validation failed","errors":{"total":["Total (amount * price) is less than 5.05"]}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'min_total' } },
  { status: 422, body: '{"code":31,"message":"Validation failed","errors":{"market":["Market is not available"]}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'market_unavailable' } },
  { status: 422, body: '{"code":36,"message":"This client order id is already used by the current account.","errors":{}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'duplicate_client_order_id' } },
  { status: 400, body: '{"code":2,"message":"Inner validation failed","errors":{"orderId":["Unexecuted order was not found."]}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'order_not_found' } },
  { status: 400, body: '{"code":10,"message":"Inner validation failed","errors":{"amount":["Not enough balance."]}}', orderEndpoint: true, expected: { class: 'InvalidOrderError', kind: 'insufficient_funds' } },
  { status: 400, body: '{"code":9,"message":"Invalid payload."}', orderEndpoint: false, expected: { class: 'InvalidRequestError' } },
  { status: 400, body: '{"code":0,"message":"Validation failed","errors":{"actionTypes.0":["The selected actionTypes.0 is invalid."]}}', orderEndpoint: false, expected: { class: 'InvalidRequestError' } },
  { status: 422, body: '{"code":2,"message":"Inner validation failed","errors":{"investment":["Investment is not active"]}}', orderEndpoint: false, expected: { class: 'InvalidRequestError' } },
  { status: 401, body: '{"code":0,"message":"Unauthorized request."}', orderEndpoint: false, expected: { class: 'AuthError', kind: 'unauthorized' } },
  { status: 403, body: '{"code":0,"message":"This action is unauthorized. Enable your key in API settings"}', orderEndpoint: false, expected: { class: 'AuthError', kind: 'key_disabled' } },
  { status: 403, body: '{"code":0,"message":"You don\'t have permission to use this endpoint."}', orderEndpoint: false, expected: { class: 'AuthError', kind: 'permission_denied' } },
  { status: 429, body: '{"code":0,"errors":{},"message":"Too many requests."}', orderEndpoint: false, expected: { class: 'NonceError' } },
  { status: 429, body: '<html>429 Too Many Requests</html>', orderEndpoint: false, expected: { class: 'TransientError', kind: 'rate_limited' } },
  { status: 451, body: '{"success":false,"message":"api.futures.unavailable","errors":[]}', orderEndpoint: false, expected: { class: 'AuthError', kind: 'feature_unavailable' } },
  { status: 422, body: '{"market":["The market field is required."]}', orderEndpoint: false, expected: { class: 'InvalidRequestError' } },
  { status: 500, body: '{"error":["Internal server error."]}', orderEndpoint: false, expected: { class: 'TransientError', kind: 'unavailable' } },
  { status: 503, body: '<html>maintenance</html>', orderEndpoint: false, expected: { class: 'TransientError', kind: 'unavailable' } },
];
