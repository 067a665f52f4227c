import { describe, expect, it } from 'vitest';
import type { TransientError } from '../../../src/core/errors.js';
import { BadResponseError, InvalidOrderError, InvalidRequestError } from '../../../src/core/errors.js';
import { classify, readErrorBody } from '../../../src/exchange/errors.js';
import {
  normaliseStatus,
  parseConditionalPage,
  parseExecutedHistory,
  parseOrder,
} from '../../../src/exchange/parse.js';
import { parseBalanceOne, parseFlexPage, parseFutures } from '../../../src/exchange/parse-account.js';
import type { HttpResponse } from '../../../src/exchange/transport.js';
import { wireDeal, wireOrder } from '../../support/fixture-client.js';

const res = (status: number, body: string): HttpResponse => ({ status, body, contentType: '', dateMs: undefined, retryAfterMs: undefined });

describe('status normalisation', () => {
  it.each([
    ['NEW', 'OPEN'], ['OPEN', 'OPEN'], ['PARTIALLY_FILLED', 'PARTIALLY_FILLED'], ['FILLED', 'FILLED'],
    ['CANCELLED', 'CANCELLED'], ['CANCELED', 'CANCELLED'], ['CANCELED_STP', 'CANCELLED'], ['CANCELED_TAKER_BAND', 'CANCELLED'],
    ['AUTO_CANCELED_REDUCE_ONLY', 'CANCELLED'],
  ])('%s → %s', (raw, expected) => expect(normaliseStatus(raw)).toBe(expected));
  it.each(['PENDING', 'new', '', 'AUTO_CANCELED_'])('%j is unknown', (raw) => expect(normaliseStatus(raw)).toBeUndefined());
});

describe('parsers name the endpoint and field', () => {
  it('order: unknown status', () => {
    const e = (() => { try { parseOrder('cancelOrder', wireOrder({ status: 'WEIRD' })); } catch (err) { return err; } })() as BadResponseError;
    expect(e).toBeInstanceOf(BadResponseError);
    expect([e.endpoint, e.field]).toEqual(['cancelOrder', 'status']);
  });
  it('order: money as a number is refused (precision)', () => {
    expect(() => parseOrder('x', wireOrder({ price: 40000 }))).toThrow(/price: expected a decimal string/);
  });
  it('order: integer-second timestamps become ms', () => {
    expect(parseOrder('x', wireOrder({ timestamp: 1700000000 })).timestampMs).toBe(1_700_000_000_000);
  });
  it('conditional: unknown record type and leg type', () => {
    expect(() => parseConditionalPage('c', { limit: 1, offset: 0, total: 1, records: [{ id: 1, type: 'trailing' }] })).toThrow(/records\[0\]\.type/);
    const leg = { ...wireOrder(), type: 'market' };
    expect(() => parseConditionalPage('c', { limit: 1, offset: 0, total: 1, records: [{ id: 1, type: 'oto', conditionalOrder: leg }] })).toThrow(
      /records\[0\]\.conditionalOrder\.type/,
    );
  });
  it('executed history: bad role, keyed values not arrays, flat without market', () => {
    expect(() => parseExecutedHistory('h', [wireDeal({ role: 3 })], 'BTC_USDT')).toThrow(/\[0\]\.role/);
    expect(() => parseExecutedHistory('h', { BTC_USDT: {} }, undefined)).toThrow(BadResponseError);
    expect(() => parseExecutedHistory('h', [wireDeal()], undefined)).toThrow(/market/);
    expect(parseExecutedHistory('h', [wireDeal({ market: 'ETH_USDT' })], undefined)[0]!.market).toBe('ETH_USDT');
  });
  it('balance: a map entry without main_balance', () => {
    expect(() => parseBalanceOne('b', { BTC: { available: '1' } }, 'BTC')).toThrow(/BTC\.main_balance/);
  });
  it('flex: unknown action type, missing transaction id', () => {
    const rec = { createdAt: 1, planId: 'p', investmentId: 'i', currency: 'USDT', amount: '1', transactionId: 't' };
    expect(() => parseFlexPage('f', { data: [{ ...rec, actionType: 9 }], limit: 1, offset: 0 })).toThrow(/data\[0\]\.actionType/);
    const { transactionId: _t, ...noTx } = rec;
    expect(() => parseFlexPage('f', { data: [{ ...noTx, actionType: 1 }], limit: 1, offset: 0 })).toThrow(/transactionId/);
  });
  it('futures: success false envelope and non-numeric strings', () => {
    expect(() => parseFutures('futures', { success: false, message: 'x', result: [] })).toThrow(/success/);
    const base = { ticker_id: 'A', stock_currency: 'A', money_currency: 'B', last_price: 'abc', stock_volume: '1', money_volume: '1', bid: '1', ask: '1', high: '1', low: '1', product_type: 'p' };
    expect(() => parseFutures('futures', { success: true, message: null, result: [base] })).toThrow(/result\[0\]\.last_price/);
  });
});

describe('error bodies and classification', () => {
  it('reads every error shape', () => {
    expect(readErrorBody({ code: 30, message: 'Validation failed', errors: { amount: ['x'] } })).toEqual({ code: 30, message: 'Validation failed', fieldErrors: { amount: ['x'] } });
    expect(readErrorBody({ success: false, message: 'bad', params: [] })).toEqual({ code: null, message: 'bad', fieldErrors: {} });
    expect(readErrorBody({ success: false, message: 'bad', errors: [] })).toEqual({ code: null, message: 'bad', fieldErrors: {} });
    expect(readErrorBody({ market: ['required'] })).toEqual({ code: null, message: 'required', fieldErrors: { market: ['required'] } });
    expect(readErrorBody({ error: ['Internal server error.'] })?.message).toBe('Internal server error.');
  });
  it('long or HTML messages are cut short', () => {
    const e = (() => { try { classify({ endpoint: 'x', orderEndpoint: false }, res(400, JSON.stringify({ code: 1, message: 'y'.repeat(5000) }))); } catch (err) { return err; } })() as Error;
    expect(e.message.length).toBeLessThan(300);
  });
  it('codes map only on order endpoints', () => {
    const body = JSON.stringify({ code: 10, message: 'Inner validation failed', errors: {} });
    expect(() => classify({ endpoint: 'x', orderEndpoint: true }, res(400, body))).toThrow(InvalidOrderError);
    try {
      classify({ endpoint: 'x', orderEndpoint: false }, res(400, body));
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidRequestError);
      expect(err).not.toBeInstanceOf(InvalidOrderError);
    }
  });
  it('429 with Retry-After carries it', () => {
    try {
      classify({ endpoint: 'x', orderEndpoint: false }, { ...res(429, 'slow'), retryAfterMs: 2000 });
    } catch (err) {
      expect((err as TransientError).retryAfterMs).toBe(2000);
    }
    expect.assertions(1);
  });
});
