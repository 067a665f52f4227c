/** Every reply sample (src/exchange/samples.ts) reads as its parser or error row says. */
import { describe, expect, it } from 'vitest';
import * as errors from '../../../src/core/errors.js';
import { failureError } from '../../../src/exchange/errors.js';
import { parseConditionalPage, parseExecutedHistory, parseOrder } from '../../../src/exchange/parse.js';
import {
  parseBalanceMap,
  parseBalanceOne,
  parseFlexClose,
  parseFlexPage,
  parseFutures,
  parseLoan,
  parsePing,
} from '../../../src/exchange/parse-account.js';
import { ERROR_SAMPLES, REPLY_SAMPLES } from '../../../src/exchange/samples.js';

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const S = REPLY_SAMPLES;

describe('reply samples parse', () => {
  it('orders', () => {
    expect(parseOrder('x', json(S.collateral)).oto?.otoId).toBe(777);
    expect(parseOrder('x', json(S.cancel)).status).toBe('CANCELLED');
    expect(parseOrder('x', json(S.bulk[0].result)).clientOrderId).toBe('b-0');
  });
  it('conditional, spec and live spellings', () => {
    expect(parseConditionalPage('c', json(S.conditional)).records.map((r) => r.kind)).toEqual(['oco', 'oto']);
    const [live] = parseConditionalPage('c', json(S.conditionalLive)).records;
    expect(live?.kind === 'oco' && live.stopLoss?.type).toBe('stop limit');
  });
  it('executed history, flat and keyed', () => {
    expect(parseExecutedHistory('h', json(S.executedHistoryFlat), 'BTC_USDT')).toHaveLength(2);
    expect(parseExecutedHistory('h', json(S.executedHistoryKeyed), undefined).map((f) => f.market)).toEqual(['BTC_USDT', 'ETH_USDT']);
  });
  it('account and public endpoints', () => {
    expect(parseBalanceMap('b', json(S.balanceMap)).get('USDT')?.toFixed()).toBe('1000.25');
    expect(parseBalanceOne('b', json(S.balanceOne), 'BTC').toFixed()).toBe('0.5');
    expect(parseFlexPage('f', json(S.flexHistory)).records.map((r) => r.transactionId)).toEqual(['t-1', 't-2']);
    expect(parseFlexClose('f', json(S.flexClose))).toEqual({ transactionId: 'tx-1' });
    expect(parseLoan('l', json(S.creditLine)).marginCallLtv.toFixed()).toBe('0.8');
    expect(parseFutures('futures', json(S.futures))[0]?.fundingRate?.toFixed()).toBe('-0.0001');
    expect(() => parsePing('ping', json(S.ping))).not.toThrow();
  });
});

describe('error samples map to their class', () => {
  it.each(ERROR_SAMPLES.map((s) => [`${s.status} ${s.body.slice(0, 60)}`, s]))('%s', (_n, s) => {
    const ctx = { endpoint: 'x', orderEndpoint: s.orderEndpoint };
    const err = failureError(ctx, { status: s.status, body: s.body, contentType: '', dateMs: undefined, retryAfterMs: undefined });
    expect(err.constructor).toBe(errors[s.expected.class]);
    if (s.expected.kind !== undefined) expect((err as unknown as { kind: string }).kind).toBe(s.expected.kind);
  });
});
