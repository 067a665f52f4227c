/** Venue error bodies: only a well-formed error is a refusal; a garbled one is unreadable. */
import { describe, expect, it } from 'vitest';
import { BadResponseError, InvalidRequestError } from '../../../src/core/errors.js';
import { classify, readErrorBody, readPrivateError } from '../../../src/exchange/errors.js';
import type { HttpResponse } from '../../../src/exchange/transport.js';

const res = (status: number, json: unknown): HttpResponse => ({
  status, body: JSON.stringify(json), contentType: 'application/json', dateMs: undefined, retryAfterMs: undefined,
});
const ctx = { endpoint: 'collateralLimitOrder', orderEndpoint: true };

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('error bodies', () => {
  it.each<[string, unknown]>([
    ['empty object', {}],
    ['code null', { code: null, message: 'Validation failed' }],
    ['code a string', { code: 'x', message: 'Validation failed' }],
    ['code a float', { code: 1.5, message: 'Validation failed' }],
    ['message a number', { code: 10, message: 7 }],
    ['errors a number', { code: 10, message: 'Inner validation failed', errors: 5 }],
    ['success true', { success: true, message: 'x' }],
    ['an array', [{ code: 10, message: 'x' }]],
    ['flat with a non-string', { market: [1] }],
  ])('%s: not a venue error', (_n, body) => {
    expect(readErrorBody(body)).toBeUndefined();
    expect(readPrivateError(body)).toBeUndefined();
  });

  it('a bulk item error is the private shape only', () => {
    expect(readPrivateError({ code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } })).toEqual({
      code: 10, message: 'Inner validation failed', fieldErrors: { amount: ['Not enough balance.'] },
    });
    expect(readPrivateError({ code: 36, message: 'This client order id is already used by the current account.' })?.code).toBe(36);
    expect(readPrivateError({ success: false, message: 'bad', params: [] })).toBeUndefined();
    expect(readPrivateError({ amount: ['x'] })).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['{}', {}],
    ['code null', { code: null, message: 'Validation failed', errors: {} }],
    ['code "x"', { code: 'x', message: 'Validation failed', errors: {} }],
  ])('a 422 with a garbled JSON error (%s) is a BadResponseError, not a refusal', (_n, body) => {
    const err = thrown(() => classify(ctx, res(422, body)));
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err).not.toBeInstanceOf(InvalidRequestError);
    expect((err as BadResponseError).field).toBe('body');
  });

  it.each(['<html>Not Found</html>', '', '{"code":10,"mess'])('a 4xx with a body that is not JSON (%j) is unreadable, not a refusal', (text) => {
    const r: HttpResponse = { status: 400, body: text, contentType: 'text/html', dateMs: undefined, retryAfterMs: undefined };
    const err = thrown(() => classify(ctx, r));
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err).not.toBeInstanceOf(InvalidRequestError);
  });
});
