/**
 * Replies the spec makes no sense of: negative money where a sign has no meaning, times outside
 * any plausible range. Each is a BadResponseError naming the field; signed fields stay signed.
 */
import { describe, expect, it } from 'vitest';
import { BadResponseError } from '../../../src/core/errors.js';
import { parseConditionalPage, parseExecutedHistory, parseOrder } from '../../../src/exchange/parse.js';
import {
  parseBalanceMap,
  parseBalanceOne,
  parseFlexPage,
  parseFutures,
  parseLoan,
} from '../../../src/exchange/parse-account.js';
import { wireDeal, wireOrder } from '../../support/fixture-client.js';

function fieldOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof BadResponseError) return err.field;
    throw err;
  }
  throw new Error('expected a BadResponseError');
}

const loan = {
  asset: 'USDT', amount: '1000', totalFunding: '1500', currentLtv: '0.5', initialLtv: '0.6', marginCallLtv: '0.8', liquidationLtv: '0.9', createdAt: 1700000000,
};
const future = {
  ticker_id: 'BTC_PERP', stock_currency: 'BTC', money_currency: 'USDT', last_price: '24005.5', stock_volume: '1.5', money_volume: '36000.25',
  bid: '24005.4', ask: '24005.6', high: '24500', low: '23000', product_type: 'Perpetual', open_interest: '12.5', index_price: '24001.1',
  funding_rate: '0.0001', next_funding_rate_timestamp: '1700003600000', brackets: { '1': 0, '20': 10000 }, max_leverage: 100, funding_interval_minutes: 480,
};
const futures = (over: Record<string, unknown>): unknown => ({ success: true, message: null, result: [{ ...future, ...over }] });
const leg = { ...wireOrder({ clientOrderId: 'c-1' }), takerFee: '0.0005', makerFee: '0.0002' };
const otoPage = (legOver: Record<string, unknown>, over: Record<string, unknown> = {}): unknown => ({
  limit: 100, offset: 0, total: 1, records: [{ id: 7, type: 'oto', stopLossPrice: '39000', takeProfitPrice: '45000', conditionalOrder: { ...leg, ...legOver }, ...over }],
});
const flex = (over: Record<string, unknown>): unknown => ({
  data: [{ createdAt: 1700000000, planId: 'p', investmentId: 'i', currency: 'USDT', amount: '1.25', actionType: 4, transactionId: 't', ...over }], limit: 50, offset: 0,
});

describe('negative money is refused where a sign means nothing', () => {
  it.each(['amount', 'price', 'left', 'dealStock', 'dealMoney'])('order %s', (field) => {
    expect(fieldOf(() => parseOrder('cancelOrder', wireOrder({ [field]: '-0.01' })))).toBe(field);
  });
  it('order oto prices', () => {
    expect(fieldOf(() => parseOrder('x', wireOrder({ oto: { otoId: 1, stopLoss: '-1' } })))).toBe('oto.stopLoss');
  });
  it.each(['amount', 'price', 'deal'])('deal %s', (field) => {
    expect(fieldOf(() => parseExecutedHistory('h', [wireDeal({ [field]: '-1' })], 'BTC_USDT'))).toBe(`[0].${field}`);
  });
  it('balances', () => {
    expect(fieldOf(() => parseBalanceMap('b', { BTC: { main_balance: '-0.5' } }))).toBe('BTC.main_balance');
    expect(fieldOf(() => parseBalanceOne('b', { main_balance: '-0.5' }, 'BTC'))).toBe('main_balance');
  });
  it.each(['amount', 'totalFunding', 'currentLtv', 'initialLtv', 'marginCallLtv', 'liquidationLtv'])('loan %s', (field) => {
    expect(fieldOf(() => parseLoan('creditLine', { ...loan, [field]: '-0.1' }))).toBe(field);
  });
  it.each<[string, unknown]>([
    ['last_price', '-1'], ['stock_volume', -1.5], ['money_volume', '-3'], ['bid', '-1'], ['ask', -1], ['high', '-1'], ['low', '-1'],
    ['open_interest', '-1'], ['index_price', '-2'], ['max_leverage', -100], ['max_leverage', 0], ['funding_interval_minutes', '-480'],
    ['funding_interval_minutes', 0],
  ])('futures %s = %j', (field, value) => {
    expect(fieldOf(() => parseFutures('futures', futures({ [field]: value })))).toBe(`result[0].${field}`);
  });
  it('futures bracket values', () => {
    expect(fieldOf(() => parseFutures('futures', futures({ brackets: { '1': 0, '20': -10000 } })))).toBe('result[0].brackets.20');
  });
  it('conditional legs and OTO prices', () => {
    expect(fieldOf(() => parseConditionalPage('c', otoPage({ amount: '-1' })))).toBe('records[0].conditionalOrder.amount');
    expect(fieldOf(() => parseConditionalPage('c', otoPage({ left: '-1' })))).toBe('records[0].conditionalOrder.left');
    expect(fieldOf(() => parseConditionalPage('c', otoPage({}, { stopLossPrice: '-39000' })))).toBe('records[0].stopLossPrice');
  });
  it('flex amounts (the action type carries the direction)', () => {
    expect(fieldOf(() => parseFlexPage('f', flex({ amount: '-1.25' })))).toBe('data[0].amount');
  });
  it('page counters', () => {
    expect(fieldOf(() => parseConditionalPage('c', { limit: 100, offset: -1, total: 0, records: [] }))).toBe('offset');
    expect(fieldOf(() => parseConditionalPage('c', { limit: 100, offset: 0, total: -5, records: [] }))).toBe('total');
    expect(fieldOf(() => parseFlexPage('f', { data: [], limit: -50, offset: 0 }))).toBe('limit');
  });
});

describe('signed fields stay signed', () => {
  it('fees may be negative (a maker rebate), funding rates too', () => {
    expect(parseOrder('x', wireOrder({ dealFee: '-0.01' })).fee.toFixed()).toBe('-0.01');
    expect(parseExecutedHistory('h', [wireDeal({ fee: '-0.0007' })], 'BTC_USDT')[0]!.fee.toFixed()).toBe('-0.0007');
    expect(parseFutures('futures', futures({ funding_rate: '-0.0003' }))[0]!.fundingRate!.toFixed()).toBe('-0.0003');
  });
  it('a negative zero is zero', () => {
    expect(parseOrder('x', wireOrder({ dealStock: '-0', left: '-0.000' })).remaining.toFixed()).toBe('0');
  });
});

describe('times outside 2000..2200 are refused', () => {
  it.each<[string, unknown]>([['1e308', 1e308], ['1970', 1], ['2300', 10_413_792_000], ['negative', -1]])('order timestamp %s', (_n, ts) => {
    expect(fieldOf(() => parseOrder('x', wireOrder({ timestamp: ts })))).toBe('timestamp');
  });
  it('deal time, leg timestamp and mtime', () => {
    expect(fieldOf(() => parseExecutedHistory('h', [wireDeal({ time: 1e308 })], 'BTC_USDT'))).toBe('[0].time');
    expect(fieldOf(() => parseConditionalPage('c', otoPage({ timestamp: 1e308 })))).toBe('records[0].conditionalOrder.timestamp');
    expect(fieldOf(() => parseConditionalPage('c', otoPage({ mtime: 5 })))).toBe('records[0].conditionalOrder.mtime');
  });
  it('integer times of either unit', () => {
    expect(parseLoan('creditLine', { ...loan, createdAt: 1_700_000_000_000 }).createdAtMs).toBe(1_700_000_000_000);
    expect(fieldOf(() => parseLoan('creditLine', { ...loan, createdAt: 1e15 }))).toBe('createdAt');
    expect(fieldOf(() => parseLoan('creditLine', { ...loan, createdAt: 20_000_000_000 }))).toBe('createdAt');
    expect(fieldOf(() => parseFlexPage('f', flex({ createdAt: 12 })))).toBe('data[0].createdAt');
  });
  it('next funding time (ms)', () => {
    expect(fieldOf(() => parseFutures('futures', futures({ next_funding_rate_timestamp: '999999999999999' })))).toBe('result[0].next_funding_rate_timestamp');
    expect(fieldOf(() => parseFutures('futures', futures({ next_funding_rate_timestamp: '1700003600' })))).toBe('result[0].next_funding_rate_timestamp');
  });
});

describe('absurd magnitudes', () => {
  it('a decimal string of hundreds of digits is not an amount', () => {
    expect(fieldOf(() => parseOrder('x', wireOrder({ amount: '9'.repeat(400) })))).toBe('amount');
  });
  it('a futures number beyond 1e21 is not a volume', () => {
    expect(fieldOf(() => parseFutures('futures', futures({ stock_volume: 1e300 })))).toBe('result[0].stock_volume');
  });
});
