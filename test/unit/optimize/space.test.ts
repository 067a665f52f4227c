import { describe, expect, it } from 'vitest';
import { SpaceError, domainValues, gridSize, parseSpace } from '../../../src/optimize/space.js';

function space(params: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ strategy: 'grid1', params, ...extra });
}

function refusal(text: string): string {
  try {
    parseSpace(text);
  } catch (err) {
    expect(err).toBeInstanceOf(SpaceError);
    return (err as Error).message;
  }
  throw new Error('parsed');
}

describe('the space file', () => {
  it('parses the documented example exactly', () => {
    const s = parseSpace(
      space({ levels: { range: [2, 6], step: 1 }, spacingPct: { log: ['0.05', '1'], steps: 6 }, postOnly: { values: [true, false] }, orderAmount: { range: ['0.001', '0.003'], step: '0.001' } }),
    );
    expect(s.strategy).toBe('grid1');
    expect(s.params.map((p) => p.name)).toEqual(['levels', 'spacingPct', 'postOnly', 'orderAmount']);
    expect(s.params[0]?.domain).toEqual({ kind: 'range', min: '2', max: '6', step: '1', integer: true });
    expect(s.params[1]?.domain).toEqual({ kind: 'log', min: '0.05', max: '1', steps: 6, integer: false });
    expect(s.params[2]?.domain).toEqual({ kind: 'values', values: [true, false] });
    expect(s.params[3]?.domain).toEqual({ kind: 'range', min: '0.001', max: '0.003', step: '0.001', integer: false });
  });

  it('reads decimal numbers through their shortest form, not binary arithmetic', () => {
    const s = parseSpace(space({ spacingPct: { range: [0.1, 0.3], step: 0.1 } }));
    expect(s.params[0]?.domain).toEqual({ kind: 'range', min: '0.1', max: '0.3', step: '0.1', integer: false });
    expect(domainValues(s.params[0]!.domain)).toEqual(['0.1', '0.2', '0.3']);
  });

  it.each([
    ['an empty range', { levels: { range: [3, 3], step: 1 } }, /param levels: empty or inverted range/],
    ['an inverted range', { levels: { range: [6, 2], step: 1 } }, /param levels: empty or inverted range \[6, 2\]/],
    ['a zero step', { levels: { range: [2, 6], step: 0 } }, /param levels: step must be > 0, found 0/],
    ['a negative step', { spacingPct: { range: ['0.1', '0.5'], step: '-0.1' } }, /param spacingPct: step must be > 0/],
    ['a step that does not divide', { spacingPct: { range: ['0', '1'], step: '0.3' } }, /param spacingPct: step 0.3 does not divide the range \[0, 1\]/],
    ['a range without step', { levels: { range: [2, 6] } }, /param levels: a range needs "step"/],
    ['a log range from zero', { spacingPct: { log: ['0', '1'], steps: 4 } }, /param spacingPct: a log range needs min > 0, found 0/],
    ['a log range from below zero', { spacingPct: { log: [-1, 1], steps: 4 } }, /param spacingPct: a log range needs min > 0/],
    ['a log range with one step', { spacingPct: { log: ['0.1', '1'], steps: 1 } }, /param spacingPct: "steps" must be a whole number from 2/],
    ['an inverted log range', { spacingPct: { log: ['1', '0.1'], steps: 3 } }, /param spacingPct: empty or inverted log range/],
    ['empty values', { postOnly: { values: [] } }, /param postOnly: "values" must be a non-empty array/],
    ['a repeated value', { postOnly: { values: [true, true] } }, /param postOnly: the value true is listed twice/],
    ['an object value', { postOnly: { values: [{}] } }, /param postOnly: a value must be a string, a number or a boolean/],
    ['a malformed decimal', { spacingPct: { range: ['0.1x', '1'], step: '0.1' } }, /param spacingPct: range min must be a decimal string/],
    ['an unknown key in a param', { levels: { range: [2, 6], step: 1, stride: 2 } }, /param levels: unknown key "stride"/],
    ['two kinds at once', { levels: { range: [2, 6], step: 1, values: [2] } }, /param levels: give exactly one of "range", "log" or "values", found range and values/],
    ['no kind', { levels: {} }, /param levels: give exactly one of/],
    ['a domain over the per-param cap', { levels: { range: [1, 5000], step: 1 } }, /param levels: the range has 5000 points, more than 1000/],
  ])('refuses %s, naming the param', (_what, params, message) => {
    expect(refusal(space(params))).toMatch(message);
  });

  it('refuses unknown top-level keys, a missing strategy, no params and bad JSON', () => {
    expect(refusal(space({ levels: { values: [2] } }, { trials: 5 }))).toMatch(/top level: unknown key "trials"/);
    expect(refusal(JSON.stringify({ params: { levels: { values: [2] } } }))).toMatch(/"strategy" must name a strategy instance id/);
    expect(refusal(space({}))).toMatch(/"params" must be an object with at least one param/);
    expect(refusal('{ "strategy": ')).toMatch(/not valid JSON/);
  });

  it('enumerates ranges, integer log ranges (rounded, merged) and decimal log ranges', () => {
    const s = parseSpace(space({ a: { range: [2, 6], step: 2 }, b: { log: [1, 100], steps: 5 }, c: { log: [1, 4], steps: 7 }, d: { log: ['0.05', '1'], steps: 6 } }));
    const [a, b, c, d] = s.params.map((p) => domainValues(p.domain));
    expect(a).toEqual([2, 4, 6]);
    // 1, 3.16, 10, 31.6, 100 rounded half even.
    expect(b).toEqual([1, 3, 10, 32, 100]);
    // 1, 1.26, 1.59, 2, 2.52, 3.17, 4: 1.26 rounds to 1 (kept once), 1.59 to 2 and 2 counts once.
    expect(c).toEqual([1, 2, 3, 4]);
    expect(d).toEqual(['0.05', '0.0910282', '0.165723', '0.301709', '0.549280', '1'].map((v) => v.replace(/0+$/, '').replace(/\.$/, '')));
    expect(gridSize(s)).toBe(3 * 5 * 4 * 6);
  });
});
