/**
 * The result's text made without the general path gives exactly what the general path gives:
 * a stored decimal printed as read when it is in toFixed form already (stored-fills.ts fixedText),
 * a list laid out a batch of elements at a time by JSON.stringify at their indent (result-file.ts ListWriter),
 * whatever the text (quotes, escapes, non-ASCII, line breaks) and values (NaN, -0, undefined, null);
 * and the report's compact fill marks give back each fill's time, market and side in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, toWire } from '../../../src/core/decimal.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileInPieces } from '../../../src/backtest/file-writer.js';
import { ListWriter } from '../../../src/backtest/result-file.js';
import { FillMarks } from '../../../src/backtest/report/fill-marks.js';
import { fixedText } from '../../../src/backtest/stored-fills.js';
import { tempDir } from '../../support/temp-dir.js';

/** Plain decimal strings of every form `dec` accepts: signs, leading and trailing zeros, zero itself. */
const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,25}$/), fc.option(fc.stringMatching(/^[0-9]{1,25}$/)))
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`);

const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('a"b', 'a\\b', 'line\nbreak', '\u2028', '</script>', '\u0000', 'ü→€'),
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 5e-324),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

describe('fixedText', () => {
  it('property: gives toWire(dec(text)) for any plain decimal text', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(fixedText(text)).toBe(toWire(dec(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the text itself in toFixed form, and the canonical form of others', () => {
    for (const t of ['0', '12.5', '-0.001', '42123.45']) expect(fixedText(t)).toBe(t);
    expect([fixedText('-0'), fixedText('0.0'), fixedText('007.50'), fixedText('-0.000')]).toEqual(['0', '0', '7.5', '0']);
  });
});

/** A list written by a ListWriter `outer` deep. */
function listText(items: readonly object[], outer: string): string {
  const file = path.join(tempDir('v4bot-result-text-'), 'list');
  writeFileInPieces(file, (w) => {
    const list = new ListWriter(w, outer);
    for (const item of items) list.add(item);
    list.end();
  });
  return readFileSync(file, 'utf8');
}

/** JSON.stringify's layout of the list `outer` deep (every line break followed by the indent). */
const general = (items: readonly object[], outer: string): string => JSON.stringify(items, null, 2).replace(/\n/g, `\n${outer}`);

describe('ListWriter', () => {
  it('property: any list of flat objects, empty, short or past several batches, as JSON.stringify lays it out', () => {
    const item = fc.dictionary(fc.string(), value);
    const list = fc.oneof(fc.array(item, { maxLength: 5 }), fc.integer({ min: 250, max: 800 }).chain((n) => fc.array(item, { minLength: n, maxLength: n })));
    fc.assert(
      fc.property(list, fc.constantFrom('', '  ', '    '), (items, outer) => {
        expect(listText(items, outer)).toBe(general(items, outer));
      }),
      { numRuns: 150 },
    );
  });

  it('nested objects, arrays, objects with toJSON and empty objects take the same text, at every batch edge', () => {
    const odd: object[] = [{ a: { b: [1, { c: 'x' }] } }, [1, 'two', null], { when: new Date(0) }, { toJSON: () => ({ k: 1 }) }, {}, { u: undefined }, []];
    for (const n of [0, 1, 255, 256, 257, 512, 513]) {
      const items = Array.from({ length: n }, (_, i) => odd[i % odd.length] as object);
      for (const outer of ['', '  ']) expect(listText(items, outer)).toBe(general(items, outer));
    }
  });

  it('refuses an indent that is not whole levels of two spaces', () => {
    expect(() => listText([], ' ')).toThrow(/two spaces/);
  });
});

describe('FillMarks', () => {
  it('property: gives back every mark in order, past its first allocation', () => {
    const mark = fc.record({ timeMs: fc.integer({ min: 0, max: 2 ** 45 }), market: fc.constantFrom('BTC_USDT', 'BTC_PERP', 'ETH_USDT'), side: fc.constantFrom('buy' as const, 'sell' as const) });
    fc.assert(
      fc.property(fc.array(mark, { maxLength: 3000 }), (marks) => {
        const kept = new FillMarks();
        for (const m of marks) kept.add(m);
        expect(kept.length).toBe(marks.length);
        expect([...kept.inOrder()]).toEqual(marks);
      }),
      { numRuns: 30 },
    );
  });
});
