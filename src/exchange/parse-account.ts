/**
 * Wire → domain for the account and market replies: balances, flex history and close, the credit
 * line, the futures listing and ping. The same rules as parse.ts (order, conditional and fill
 * replies): Decimal money, ms timestamps, strict about unknown shapes. A reply sample for every
 * parser: `REPLY_SAMPLES` in samples.ts, named in each parser's comment.
 */
import { BadResponseError } from '../core/errors.js';
import { ZERO, type Decimal } from '../core/decimal.js';
import { isRecord } from '../core/records.js';
import type { Loan } from '../model/credit.js';
import type { FlexActionType, FlexPage, FlexRecord } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import { Reader } from './fields.js';

/** Main balance map `{TICKER: {main_balance}}`. Sample: `REPLY_SAMPLES.balanceMap`. */
export function parseBalanceMap(endpoint: string, value: unknown): Map<string, Decimal> {
  const r = Reader.of(endpoint, value, '');
  const out = new Map<string, Decimal>();
  for (const ticker of Object.keys(r.obj)) out.set(ticker, r.child(ticker).dec('main_balance'));
  return out;
}

/** Main balance of one ticker: the live single `{main_balance}` or the spec's map (absent → 0). Sample: `REPLY_SAMPLES.balanceOne`. */
export function parseBalanceOne(endpoint: string, value: unknown, ticker: string): Decimal {
  const r = Reader.of(endpoint, value, '');
  if (r.has('main_balance') && !isRecord(r.raw('main_balance'))) return r.dec('main_balance');
  return parseBalanceMap(endpoint, value).get(ticker) ?? ZERO;
}

const FLEX_ACTIONS: Readonly<Record<number, FlexActionType>> = {
  1: 'INVEST',
  2: 'REINVEST',
  3: 'WITHDRAW_FROM_INVESTMENT',
  4: 'DAILY_EARNING',
  5: 'CLOSE_INVESTMENT',
  6: 'OPEN_INVESTMENT',
};

export const FLEX_ACTION_CODES: Readonly<Record<FlexActionType, number>> = {
  INVEST: 1,
  REINVEST: 2,
  WITHDRAW_FROM_INVESTMENT: 3,
  DAILY_EARNING: 4,
  CLOSE_INVESTMENT: 5,
  OPEN_INVESTMENT: 6,
};

function parseFlexRecord(endpoint: string, value: unknown, path: string): FlexRecord {
  const r = Reader.of(endpoint, value, path);
  const txField = r.pick('transactionId', 'transaction_id') ?? r.fail('transactionId', 'missing (neither transactionId nor transaction_id)');
  const code = r.int('actionType');
  const actionType = FLEX_ACTIONS[code] ?? r.fail('actionType', 'unknown action type');
  return {
    transactionId: r.str(txField),
    createdAtMs: r.unixToMs('createdAt'),
    planId: r.str('planId'),
    investmentId: r.str('investmentId'),
    currency: r.str('currency'),
    amount: r.dec('amount'),
    actionType,
  };
}

/** Sample: `REPLY_SAMPLES.flexHistory`. */
export function parseFlexPage(endpoint: string, value: unknown): FlexPage {
  const r = Reader.of(endpoint, value, '');
  return {
    records: r.array('data').map((v, i) => parseFlexRecord(endpoint, v, `data[${i}]`)),
    limit: r.int('limit'),
    offset: r.int('offset'),
  };
}

/** Sample: `REPLY_SAMPLES.flexClose`. */
export function parseFlexClose(endpoint: string, value: unknown): { transactionId: string } {
  const d = Reader.of(endpoint, value, '').child('data');
  const f = d.pick('transactionId', 'transaction_id') ?? d.fail('transactionId', 'missing (neither transactionId nor transaction_id)');
  return { transactionId: d.str(f) };
}

/** Sample: `REPLY_SAMPLES.creditLine` ("no active loan" and "not enabled": quirks.ts). */
export function parseLoan(endpoint: string, value: unknown): Loan {
  const r = Reader.of(endpoint, value, '');
  return {
    asset: r.str('asset'),
    amount: r.dec('amount'),
    totalFunding: r.dec('totalFunding'),
    currentLtv: r.dec('currentLtv'),
    initialLtv: r.dec('initialLtv'),
    marginCallLtv: r.dec('marginCallLtv'),
    liquidationLtv: r.dec('liquidationLtv'),
    createdAtMs: r.unixToMs('createdAt'),
  };
}

function parseFuture(endpoint: string, value: unknown, path: string): FuturesMarket {
  const r = Reader.of(endpoint, value, path);
  const m: FuturesMarket = {
    tickerId: r.str('ticker_id'),
    base: r.str('stock_currency'),
    quote: r.str('money_currency'),
    lastPrice: r.looseDec('last_price'),
    baseVolume: r.looseDec('stock_volume'),
    quoteVolume: r.looseDec('money_volume'),
    bid: r.looseDec('bid'),
    ask: r.looseDec('ask'),
    high: r.looseDec('high'),
    low: r.looseDec('low'),
    productType: r.str('product_type'),
  };
  // The funding rate is the one signed figure here (shorts pay longs when negative).
  const optDecs = [
    ['open_interest', 'openInterest', 'nonNegative'],
    ['index_price', 'indexPrice', 'nonNegative'],
    ['funding_rate', 'fundingRate', 'signed'],
  ] as const;
  for (const [wire, dom, sign] of optDecs) {
    const d = r.optLooseDec(wire, sign);
    if (d !== undefined) m[dom] = d;
  }
  const indexName = r.optStr('index_name');
  if (indexName !== undefined) m.indexName = indexName;
  const indexCurrency = r.optStr('index_currency');
  if (indexCurrency !== undefined) m.indexCurrency = indexCurrency;
  if (r.has('next_funding_rate_timestamp')) m.nextFundingRateTimestampMs = r.looseMs('next_funding_rate_timestamp');
  if (r.has('max_leverage')) m.maxLeverage = r.positiveLooseInt('max_leverage');
  if (r.has('funding_interval_minutes')) m.fundingIntervalMinutes = r.positiveLooseInt('funding_interval_minutes');
  if (r.has('brackets')) {
    const b = r.child('brackets');
    const brackets: Record<string, number> = {};
    for (const k of Object.keys(b.obj)) brackets[k] = b.looseInt(k);
    m.brackets = brackets;
  }
  return m;
}

/** Sample: `REPLY_SAMPLES.futures`. */
export function parseFutures(endpoint: string, value: unknown): FuturesMarket[] {
  const r = Reader.of(endpoint, value, '');
  if (r.raw('success') !== true) r.fail('success', 'expected true');
  return r.array('result').map((v, i) => parseFuture(endpoint, v, `result[${i}]`));
}

/** Sample: `REPLY_SAMPLES.ping`. */
export function parsePing(endpoint: string, value: unknown): void {
  if (!Array.isArray(value) || value[0] !== 'pong') throw new BadResponseError(endpoint, '(root)', 'expected ["pong"]');
}
