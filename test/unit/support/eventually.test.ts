import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';

describe('eventually', () => {
  it('resolves with the first value that is not undefined, null or false, sync or async', async () => {
    let n = 0;
    const seen: unknown[] = [undefined, null, false];
    expect(await eventually(() => (n < 3 ? seen[n++] : { n }), 'a value')).toEqual({ n: 3 });
    let m = 0;
    expect(await eventually(async () => ++m >= 2, 'true')).toBe(true);
    expect(await eventually(() => 0, 'zero')).toBe(0);
  });

  it('keeps polling through throws, and times out naming what it waited for and the last error', async () => {
    let calls = 0;
    const failing = eventually(
      () => {
        calls++;
        throw new Error('not ready');
      },
      'the thing',
      { timeoutMs: 50, everyMs: 5 },
    );
    await expect(failing).rejects.toThrow('timed out waiting for the thing: Error: not ready');
    expect(calls).toBeGreaterThan(1);
    await expect(eventually(() => false, 'never', { timeoutMs: 20 })).rejects.toThrow(/^timed out waiting for never$/);
  });
});
