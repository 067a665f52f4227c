import { describe, expect, it } from 'vitest';
import { DAY_MS, fewTradesFlag, foldWindows, oosFlags, paramFlags, stitchEquity } from '../../../src/optimize/walk-forward.js';
import { parseSpace } from '../../../src/optimize/space.js';

const START = Date.parse('2024-01-01T00:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

describe('walk-forward windows', () => {
  it('rolls each fold forward by one test window', () => {
    const folds = foldWindows({ folds: 3, trainDays: 10, testDays: 5 }, START, START + 25 * DAY_MS);
    expect(folds.map((f) => [iso(f.train.fromMs), iso(f.train.toMs), iso(f.test.fromMs), iso(f.test.toMs)])).toEqual([
      ['2024-01-01T00:00:00.000Z', '2024-01-11T00:00:00.000Z', '2024-01-11T00:00:00.000Z', '2024-01-16T00:00:00.000Z'],
      ['2024-01-06T00:00:00.000Z', '2024-01-16T00:00:00.000Z', '2024-01-16T00:00:00.000Z', '2024-01-21T00:00:00.000Z'],
      ['2024-01-11T00:00:00.000Z', '2024-01-21T00:00:00.000Z', '2024-01-21T00:00:00.000Z', '2024-01-26T00:00:00.000Z'],
    ]);
    expect(folds.map((f) => f.fold)).toEqual([0, 1, 2]);
  });

  it('refuses folds that do not fit the data, saying what they need', () => {
    expect(() => foldWindows({ folds: 3, trainDays: 10, testDays: 5 }, START, START + 25 * DAY_MS - 1)).toThrow(
      /3 folds of 10 train \+ 5 test days need 25 days of data \(train \+ folds × test\), the prices span 24.99 days/,
    );
  });
});

describe('the stitched out-of-sample equity', () => {
  it('chains the folds by PnL: each curve starts where the previous ended', () => {
    const stitched = stitchEquity([
      [{ timeMs: 1, equity: '1000' }, { timeMs: 2, equity: '1010.5' }],
      [{ timeMs: 3, equity: '1000' }, { timeMs: 4, equity: '990' }],
      [],
      [{ timeMs: 5, equity: '1000' }, { timeMs: 6, equity: '1001' }],
    ]);
    expect(stitched).toEqual([
      { timeMs: 1, equity: '1000' },
      { timeMs: 2, equity: '1010.5' },
      { timeMs: 3, equity: '1010.5' },
      { timeMs: 4, equity: '1000.5' },
      { timeMs: 5, equity: '1000.5' },
      { timeMs: 6, equity: '1001.5' },
    ]);
  });
});

describe('overfitting flags', () => {
  it('flags an out-of-sample objective below half the in-sample one, a sign flip or a missing one', () => {
    const flags = oosFlags([
      { fold: 0, inSample: '2', outOfSample: '1' }, // exactly half: kept
      { fold: 1, inSample: '2', outOfSample: '0.99' },
      { fold: 2, inSample: '2', outOfSample: '-0.5' },
      { fold: 3, inSample: '2', outOfSample: null },
      { fold: 4, inSample: '-1', outOfSample: '-5' }, // nothing to lose in sample
      { fold: 5, inSample: null, outOfSample: '1' },
    ]);
    expect(flags.map((f) => [f.code, f.fold])).toEqual([
      ['oos_far_below_is', 1],
      ['oos_far_below_is', 2],
      ['oos_far_below_is', 3],
    ]);
    expect(flags[1]?.message).toMatch(/sign flipped/);
  });

  it('flags a param whose chosen value jumps more than half its range between folds', () => {
    const space = parseSpace(
      JSON.stringify({ strategy: 'g', params: { levels: { range: [1, 9], step: 1 }, spacingPct: { values: ['0.1', '0.2', '0.5'] }, postOnly: { values: [true, false] } } }),
    );
    const flags = paramFlags(space, [
      { fold: 0, bestParams: { levels: 1, spacingPct: '0.1', postOnly: true } },
      { fold: 1, bestParams: { levels: 5, spacingPct: '0.5', postOnly: false } }, // levels +4 = half: kept; spacing +0.4 > 0.2
      { fold: 2, bestParams: { levels: 9.5, spacingPct: '0.5', postOnly: true } }, // levels +4.5 > 4
    ]);
    expect(flags.map((f) => [f.code, f.fold, f.message.split(':')[1]?.trim().split(' ')[0]])).toEqual([
      ['params_unstable', 2, 'levels'],
      ['params_unstable', 1, 'spacingPct'],
    ]);
  });

  it('flags a window with fewer than five round trips', () => {
    expect(fewTradesFlag(4, 2, 'test window')).toEqual([{ code: 'few_trades', fold: 2, message: expect.stringMatching(/^fold 2 test window: the chosen params closed 4 round trips/) as unknown }]);
    expect(fewTradesFlag(5, 2, 'test window')).toEqual([]);
  });
});
