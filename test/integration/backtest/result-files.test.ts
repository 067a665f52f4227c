/**
 * The result files written from the run's store as it is read (writeResultFiles) are byte for
 * byte the whole result's: result.json is JSON.stringify(buildResult(...), null, 2) and
 * report.html is renderReport of it, for a real run of the sample with fills and round trips.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildResult, writeResultFiles } from '../../../src/backtest/collect.js';
import { renderReport } from '../../../src/backtest/report/index.js';
import { runBacktest } from '../../../src/backtest/run.js';
import { sampleInputs } from '../../support/sample-backtest.js';
import { tempDir } from '../../support/temp-dir.js';

describe('result files written from the store', () => {
  it('equal the whole result as JSON and its report', async () => {
    const { inputs, meta } = await sampleInputs('in-process', 'thread', 4);
    const out = tempDir('v4bot-result-files-');
    const { whole, head } = await runBacktest(inputs, (s) => ({ whole: buildResult(s, meta), head: writeResultFiles(s, meta, out) }));
    expect(whole.fills.length).toBeGreaterThan(20);
    expect(whole.trades.length).toBeGreaterThan(5);
    expect(readFileSync(path.join(out, 'result.json'), 'utf8')).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toBe(renderReport(whole));
    const { fills: _fills, trades: _trades, ...wholeHead } = whole;
    expect(head).toEqual(wholeHead);
    // The lists' text written beside the result while the store was read is gone.
    expect(readdirSync(out).sort()).toEqual(['report.html', 'result.json', 'venue-fills.json']);
  }, 240_000);
});
