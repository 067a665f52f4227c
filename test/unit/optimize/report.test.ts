/**
 * The study report's HTML without a browser, on hand-made results (test/support/study-fixtures.ts):
 * byte-identical for the same result, every text from the result escaped (an HTML param value,
 * an HTML param name, a flag message, a failure's error), the CSP naming exactly the page's
 * scripts, and each section present with the result's values, or saying why it is absent.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { BacktestMetrics } from '../../../src/backtest/result.js';
import { renderStudyReport } from '../../../src/optimize/report/index.js';
import { studyChartData } from '../../../src/optimize/report/chart-data.js';
import type { StudyResult } from '../../../src/optimize/types.js';
import { INJECTION_PARAM, INJECTION_VALUE, failedStudy, gridStudy, walkForwardStudy } from '../../support/study-fixtures.js';

/** The element with `id` and everything up to the end of its section, or of its figure for a scatter (ids are unique in the page). */
function part(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) return '';
  const end = html.indexOf(id.startsWith('scatter-') ? '</figure>' : '</section>', start);
  return html.slice(start, end < 0 ? undefined : end);
}

/** Rows of the table `id` as arrays of cell texts (tags stripped, entities as written). */
function rows(html: string, id: string): string[][] {
  const table = /<tbody>([^]*?)<\/tbody>/.exec(part(html, id))?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>([^]*?)<\/tr>/g)].map((r) => [...(r[1] ?? '').matchAll(/<t[dh][^>]*>([^]*?)<\/t[dh]>/g)].map((c) => (c[1] ?? '').replace(/<[^>]*>/g, '')));
}

const METRIC_FIELDS: Array<keyof BacktestMetrics> = [
  'realisedPnl', 'fees', 'realisedPnlAfterFees', 'unrealisedPnl', 'flexEarnings', 'netPnl', 'orders', 'fills', 'trades', 'winRate', 'maxDrawdown', 'exposure', 'sharpeDaily',
];

describe('renderStudyReport: a grid study', () => {
  const result = gridStudy();
  const html = renderStudyReport(result);

  it('is byte-identical for the same result, also after a trip through JSON, and changes with it', () => {
    const again = renderStudyReport(JSON.parse(JSON.stringify(result)) as StudyResult);
    expect(createHash('sha256').update(again).digest('hex')).toBe(createHash('sha256').update(html).digest('hex'));
    expect(renderStudyReport({ ...result, seed: 43 })).not.toBe(html);
  });

  it('escapes a param value carrying HTML everywhere it appears, and embeds JSON free of "<"', () => {
    expect(html).not.toContain(INJECTION_VALUE);
    expect(html).not.toContain('<script>window.pwned');
    expect(html).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
    expect(html.match(/<script/g)).toHaveLength(3);
    const json = /<script type="application\/json" id="report-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(json).not.toMatch(/[<>&]/);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(studyChartData(result))));
  });

  it('lets the CSP run exactly the page\'s two inline scripts and fetch nothing', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    const scripts = [...html.matchAll(/<script(?: type="module")?>([^]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(2);
    for (const s of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    expect(html).not.toMatch(/<(script|img|link)[^>]+(src|href)="https?:/);
  });

  it('heads the page with the study, its search, shortened hashes with the full one in the tooltip, span, trials and failures', () => {
    const head = rows(html, 'study');
    const get = (k: string): string => head.find((r) => r[0] === k)?.[1] ?? '';
    expect(get('Study')).toBe('breakout-grid');
    expect(get('Search')).toBe('grid, seed 42');
    expect(get('Config')).toBe(`SHA-256 ${result.inputs.configSha256.slice(0, 12)}`);
    expect(part(html, 'study')).toContain(`title="${result.inputs.configSha256}"`);
    expect(get('Span (UTC)')).toBe('2026-01-05T00:00Z → 2026-02-04T00:00Z');
    expect(get('Trials')).toBe('48');
    expect(get('Failed trials')).toBe('0');
    expect(renderStudyReport({ ...result, failures: undefined } as unknown as StudyResult)).toContain('not recorded in this result');
  });

  it('lists every trial with its params, objective and figures, each cell carrying its rank in its column', () => {
    const table = rows(html, 'trials');
    expect(table).toHaveLength(48);
    const t = result.trials[17] as StudyResult['trials'][number];
    expect(table[17]?.slice(0, 9)).toEqual(['17', '20', '1', 'true', '&lt;script&gt;window.pwned=1&lt;/script&gt;', new Decimal(t.objective ?? '').toFixed(4), t.metrics.netPnl, String(t.metrics.trades), expect.stringMatching(/%$/)]);
    const heads = [...part(html, 'trials').matchAll(/<th [^>]*data-col="(\d+)"[^>]*>([^<]*)<\/th>/g)].map((m) => m[2]);
    expect(heads).toEqual(['#', 'lookback', 'thresholdPct', 'useStop', 'mode', 'Objective (sharpe)', 'Net PnL', 'Trades', 'Max drawdown', 'Sharpe', 'Window (UTC)', 'Fold', 'Phase']);
    // Net PnL (column 6): the ranks order the trials as exact decimals do.
    const ranks = [...part(html, 'trials').matchAll(/<tr>(?:<td[^>]*>[^<]*<\/td>){6}<td[^>]*data-k="(\d*)"/g)].map((m) => Number(m[1]));
    const byRank = result.trials.map((tr, i) => ({ net: new Decimal(tr.metrics.netPnl), k: ranks[i] as number })).sort((a, b) => a.k - b.k);
    for (let i = 1; i < byRank.length; i++) expect((byRank[i] as { net: Decimal }).net.gte((byRank[i - 1] as { net: Decimal }).net)).toBe(true);
    // A trial without an objective has an empty sort key there.
    expect(part(html, 'trials')).toMatch(/<td class="num" data-k="">—<\/td>/);
  });

  it('draws one scatter per param, one dot per trial with an objective, booleans and texts as categories', () => {
    const scored = result.trials.filter((t) => t.objective !== null).length;
    for (const i of [0, 1, 2, 3]) {
      expect(part(html, `scatter-${i}`).match(/<circle cx=/g)).toHaveLength(scored);
      // The best trial, ringed on top of its own dot.
      const ring = /<circle class="best" cx="([\d.]+)" cy="([\d.]+)"/.exec(part(html, `scatter-${i}`));
      const best = result.best as NonNullable<StudyResult['best']>;
      const own = new RegExp(`<circle cx="([\\d.]+)" cy="([\\d.]+)"[^>]*><title>trial \\d+: [^<]*, sharpe ${best.objective}</title>`).exec(part(html, `scatter-${i}`));
      expect(ring?.slice(1)).toEqual(own?.slice(1));
      expect(part(html, `scatter-${i}`).match(/class="best"/g)).toHaveLength(1);
    }
    // lookback is a range: 10 at the plot's left (frame 64 + 10 of padding), 40 at its right (64 + 262 − 10).
    const lookbackX = (v: number): string[] => [...part(html, 'scatter-0').matchAll(new RegExp(`cx="([\\d.]+)"[^>]*><title>trial \\d+: lookback=${v},`, 'g'))].map((m) => m[1] ?? '');
    expect(new Set(lookbackX(10))).toEqual(new Set(['74.0']));
    expect(new Set(lookbackX(40))).toEqual(new Set(['316.0']));
    const labels = (i: number): string[] => [...part(html, `scatter-${i}`).matchAll(/<text class="category"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
    expect(labels(2)).toEqual(['true', 'false']);
    expect(labels(3)).toEqual(['close', '&lt;script&gt;window.…']);
    expect(labels(1)).toEqual([]); // decimal strings: a numeric axis, no category labels
  });

  it('shows the best params with every backtest figure, its equity, and says there is no walk-forward and no flag', () => {
    const best = result.best as NonNullable<StudyResult['best']>;
    expect(rows(html, 'best-params')).toEqual([['lookback', String(best.params['lookback'])], ['thresholdPct', String(best.params['thresholdPct'])],
      ['useStop', String(best.params['useStop'])], ['mode', 'close']]);
    const fields = [...part(html, 'best-metrics').matchAll(/data-field="(\w+)"/g)].map((m) => m[1]);
    expect(fields).toEqual(METRIC_FIELDS);
    expect(rows(html, 'best-metrics').find((r) => r[0] === 'Net PnL')?.[1]).toBe(best.metrics.netPnl);
    expect(html).toContain('id="chart-best-equity"');
    expect(studyChartData(result).bestEquity.length).toBe(best.equity.length);
    expect(part(html, 'walk-forward')).toContain('This study did not use walk-forward');
    expect(html).not.toContain('id="chart-oos-equity"');
    expect(part(html, 'flags')).toContain('No overfitting flag was raised.');
    expect(html).not.toContain('id="failures"');
  });
});

describe('renderStudyReport: a walk-forward study with flags', () => {
  const result = walkForwardStudy();
  const html = renderStudyReport(result);
  const wf = result.walkForward as NonNullable<StudyResult['walkForward']>;

  it('puts the flags first after the header, each with its code, fold and escaped message', () => {
    expect(html.indexOf('id="flags"')).toBeLessThan(html.indexOf('id="best"'));
    expect(part(html, 'flags')).toContain('role="alert"');
    const items = [...part(html, 'flags').matchAll(/<li>([^]*?)<\/li>/g)].map((m) => (m[1] ?? '').replace(/<[^>]*>/g, ''));
    expect(items).toEqual([
      `oos_far_below_is fold 2: ${result.flags[0]?.message}`,
      'few_trades fold 1: The test window closed fewer than 10 round trips: its objective rests on too few trades &lt;to trust&gt;.',
      `params_unstable: ${result.flags[2]?.message}`,
    ]);
    const named = renderStudyReport({ ...result, flags: [{ code: 'params_unstable', message: 'fold 1: levels jumped from 2 to 3', fold: 1 }] });
    expect(part(named, 'flags')).toContain('<li><code>params_unstable</code>: fold 1: levels jumped from 2 to 3</li>');
  });

  it('lists each fold with its windows, chosen params, in- and out-of-sample objective, test net PnL and trades', () => {
    const folds = rows(html, 'folds');
    expect(folds).toHaveLength(3);
    const f = wf.folds[1] as NonNullable<typeof wf.folds[number]>;
    expect(folds[1]).toEqual([
      '2', '2026-01-15T00:00Z → 2026-02-04T00:00Z', '2026-02-04T00:00Z → 2026-02-14T00:00Z',
      `lookback=${f.bestParams['lookback']}, thresholdPct=${f.bestParams['thresholdPct']}, mode&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;=${f.bestParams[INJECTION_PARAM]}`,
      new Decimal(f.inSample ?? '').toFixed(4), new Decimal(f.outOfSample ?? '').toFixed(4), f.testMetrics.netPnl, String(f.testMetrics.trades),
    ]);
    expect(html).toContain('id="chart-oos-equity"');
    expect(studyChartData(result).oosEquity).toHaveLength(wf.stitchedEquity.length);
  });

  it('escapes an HTML param name in headers, scatters and tables, and a failure\'s error', () => {
    expect(html).not.toContain(INJECTION_PARAM);
    expect(html).not.toContain('<img');
    expect(part(html, 'trials')).toContain('<th class="sortable" data-col="3" aria-sort="none" tabindex="0">mode&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;</th>');
    expect(rows(html, 'failed-trials')).toEqual([[
      '51', 'lookback=30, thresholdPct=0.25, mode&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;=slow',
      '2026-01-25T00:00Z → 2026-02-14T00:00Z train fold 3', 'strategy error in onTick: Cannot read properties of undefined (reading &#39;close&#39;) &lt;at line 41&gt;',
    ]]);
  });

  it('counts trials by phase and draws only the search (train) trials in the scatters', () => {
    const head = rows(html, 'study');
    expect(head.find((r) => r[0] === 'Trials')?.[1]).toBe('56 (53 train, 3 test)');
    expect(head.find((r) => r[0] === 'Failed trials')?.[1]).toBe('1 (listed below)');
    const train = result.trials.filter((t) => t.window.phase === 'train' && t.objective !== null).length;
    expect(part(html, 'scatter-0').match(/<circle cx=/g)).toHaveLength(train);
    const tests = result.trials.filter((t) => t.window.phase === 'test').map((t) => t.index);
    expect(tests).toHaveLength(3);
    for (const i of tests) expect(part(html, 'scatter-0')).not.toContain(`<title>trial ${i}:`);
    expect(part(html, 'scatter-0')).toContain(`<title>trial ${(tests[0] as number) - 1}:`);
  });

  it('draws a log domain on a log axis: 0.25, 1 and 4 evenly spaced', () => {
    const xs = (v: string): Set<string> => new Set([...part(html, 'scatter-1').matchAll(new RegExp(`cx="([\\d.]+)"[^>]*><title>trial \\d+: thresholdPct=${v},`, 'g'))].map((m) => m[1] ?? ''));
    expect([xs('0.25'), xs('1'), xs('4')]).toEqual([new Set(['74.0']), new Set(['195.0']), new Set(['316.0'])]);
    expect(part(html, 'scatter-1')).toContain('(log, log axis)');
  });
});

describe('renderStudyReport: a study in which every trial failed', () => {
  const result = failedStudy();
  const html = renderStudyReport(result);

  it('says what is absent instead of drawing it, and lists the failures', () => {
    expect(part(html, 'no-best')).toContain('no trial produced an objective value');
    expect(part(html, 'no-trials')).toContain('No trial finished');
    expect(part(html, 'no-scatter')).toContain('nothing to draw');
    expect(part(html, 'no-walk-forward')).toContain('did not use walk-forward');
    expect(html).not.toMatch(/id="chart-/);
    expect(rows(html, 'failed-trials')).toHaveLength(3);
    expect(rows(html, 'study').find((r) => r[0] === 'Failed trials')?.[1]).toBe('3 (listed below)');
    expect(studyChartData(result)).toMatchObject({ bestEquity: [], oosEquity: [] });
  });

  it('copes with a walk-forward that finished no fold and a best trial without equity', () => {
    const odd: StudyResult = { ...gridStudy(), walkForward: { folds: [], stitchedEquity: [] } };
    odd.best = { ...(odd.best as NonNullable<StudyResult['best']>), equity: [] };
    const page = renderStudyReport(odd);
    expect(page).toContain('id="no-folds"');
    expect(page).toContain('id="no-oos-equity"');
    expect(page).toContain('id="no-best-equity"');
    expect(page).not.toMatch(/id="chart-/);
  });
});
