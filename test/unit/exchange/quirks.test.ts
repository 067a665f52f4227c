/** The quirk table: each row's own sample is recognised; near misses are not. */
import { describe, expect, it } from 'vitest';
import { QUIRKS, quirkOf } from '../../../src/exchange/quirks.js';
import { PathFallback } from '../../../src/exchange/path-fallback.js';

describe('venue quirks', () => {
  it.each(QUIRKS.map((q) => [q.meaning, q]))('%s: its sample matches', (_m, q) => {
    expect(quirkOf(q.endpoint, q.sample)).toBe(q.meaning);
  });

  it.each<[string, Parameters<typeof quirkOf>[0], number, unknown]>([
    ['another loan message', 'creditLine', 400, { code: 0, message: 'Validation failed' }],
    ['no-loan text with a garbled code', 'creditLine', 400, { code: '0', message: 'No active loan at the moment' }],
    ['no-loan text on another endpoint', 'mainBalance', 400, { code: 0, message: 'No active loan at the moment' }],
    ['history 422 for another field', 'executedHistory', 422, { code: 30, message: 'Validation failed', errors: { market: ['x'] } }],
    ['history not-found with code 0', 'executedHistory', 422, { code: 0, message: 'Validation failed', errors: { orderHistory: ['x'] } }],
    ['a credit-line 404 without a venue body', 'creditLine', 404, 'Not Found'],
    ['a conditional 500', 'conditionalOrders', 500, 'down'],
  ])('%s: no quirk', (_n, endpoint, status, body) => {
    expect(quirkOf(endpoint, { status, body: typeof body === 'string' ? body : JSON.stringify(body) })).toBeUndefined();
  });
});

describe('path fallback', () => {
  it('uses the fallback for the retry window after a primary 404, then the primary again', () => {
    const p = new PathFallback('/a', '/b', 1000);
    expect(p.path(0)).toBe('/a');
    p.primaryMissing(10);
    expect([p.path(10), p.path(1009), p.path(1010)]).toEqual(['/b', '/b', '/a']);
    expect(p.path(5)).toBe('/b');
  });
});
