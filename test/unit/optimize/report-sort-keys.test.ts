/**
 * The trials table's sort keys: ranks computed with exact decimals, so "10" sorts after "9",
 * "-5.5" before "-5" and "0.10" with "0.1"; equal values share a rank; no value has no rank;
 * a column mixing kinds groups numbers, then booleans, then texts.
 */
import { describe, expect, it } from 'vitest';
import { compareValues, sortRanks } from '../../../src/optimize/report/sort-keys.js';
import { shownTrials } from '../../../src/optimize/report/trials-table.js';
import { gridStudy } from '../../support/study-fixtures.js';

describe('sortRanks', () => {
  it('ranks decimal strings by value, not as text', () => {
    expect(sortRanks(['10', '9', '-5.5', '-5', '100.25', '0.10', '0.1'])).toEqual([4, 3, 0, 1, 5, 2, 2]);
  });

  it('ranks numbers and decimal strings together, exactly beyond a double', () => {
    // As doubles both would be 0.1: the ranks tell them apart.
    expect(sortRanks(['0.10000000000000000001', 0.1, 2, '1.5'])).toEqual([1, 0, 3, 2]);
  });

  it('gives a missing value no rank and keeps the others dense', () => {
    expect(sortRanks([null, '3', null, '1', '3'])).toEqual([null, 1, null, 0, 1]);
    expect(sortRanks([null, null])).toEqual([null, null]);
    expect(sortRanks([])).toEqual([]);
  });

  it('orders booleans false first, texts by code unit, and a mixed column numbers, booleans, texts', () => {
    expect(sortRanks([true, false, true])).toEqual([1, 0, 1]);
    expect(sortRanks(['slow', 'fast', '<script>', 'Fast'])).toEqual([3, 2, 0, 1]);
    expect(sortRanks(['wide', true, '2', 1])).toEqual([3, 2, 1, 0]);
    expect(compareValues('1e3', '2')).toBeGreaterThan(0); // not a plain decimal: a text, after every number
  });
});

describe('shownTrials', () => {
  const trials = gridStudy().trials;

  it('lists every trial in index order when they fit', () => {
    expect(shownTrials([...trials].reverse()).map((t) => t.index)).toEqual(trials.map((t) => t.index));
  });

  it('keeps the best trials by objective (none before nulls) when they do not, still in index order', () => {
    const kept = shownTrials(trials, 5);
    const best = trials.filter((t) => t.objective !== null).sort((a, b) => Number(b.objective) - Number(a.objective)).slice(0, 5).map((t) => t.index);
    expect(kept.map((t) => t.index)).toEqual([...best].sort((a, b) => a - b));
    const scored = trials.filter((t) => t.objective !== null).length;
    expect(scored).toBeLessThan(trials.length);
    expect(shownTrials(trials, scored).filter((t) => t.objective === null)).toHaveLength(0);
    expect(shownTrials(trials, scored + 1).filter((t) => t.objective === null)).toHaveLength(1);
  });
});
