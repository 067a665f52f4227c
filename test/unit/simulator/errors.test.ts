/** The simulator's error answers: an answer, not a fault, so no stack is captured for it. */
import { describe, expect, it } from 'vitest';
import { SimHttpError, business } from '../../../src/simulator/errors.js';

describe('SimHttpError', () => {
  it('keeps status, body and raw text, records no stack frames, and leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    const raw = { text: 'Unauthorized', contentType: 'text/plain' };
    const e = new SimHttpError(401, { code: 0 }, raw);
    expect([e.status, e.body, e.raw, e.message]).toEqual([401, { code: 0 }, raw, 'sim http 401']);
    expect(e.stack ?? '').not.toContain('    at ');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('a fault').stack).toContain('    at ');
  });

  it('answers built by the helpers are SimHttpErrors without raw text', () => {
    const e = business(10);
    expect(e).toBeInstanceOf(SimHttpError);
    expect([e.status, e.raw]).toEqual([400, undefined]);
    expect(e.body).toEqual({ code: 10, message: 'Inner validation failed', errors: {} });
  });
});
