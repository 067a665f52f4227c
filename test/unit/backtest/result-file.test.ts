/**
 * result.json and report.html written in pieces are byte for byte the whole documents: the
 * result's JSON (fills and trades from any iteration, each element as written) and the report's
 * page, also for empty lists and for text past the writer's chunk.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileInPieces } from '../../../src/backtest/file-writer.js';
import { renderReport, reportInputOf, writeReport } from '../../../src/backtest/report/index.js';
import type { BacktestFill, BacktestResult } from '../../../src/backtest/result.js';
import { ListWriter, writeResultJson, writeResultJsonOfFiles } from '../../../src/backtest/result-file.js';
import { reportFixture } from '../../support/backtest-report-fixture.js';
import { tempDir } from '../../support/temp-dir.js';

const whole = (r: BacktestResult): string => `${JSON.stringify(r, null, 2)}\n`;

function written(fill: Parameters<typeof writeFileInPieces>[1]): string {
  const file = path.join(tempDir('v4bot-result-file-'), 'out');
  writeFileInPieces(file, fill);
  return readFileSync(file, 'utf8');
}

describe('result.json in pieces', () => {
  const result = reportFixture();

  it('equals JSON.stringify(result, null, 2) with a newline, the lists given as iterations', () => {
    expect(result.fills.length).toBeGreaterThan(10);
    expect(result.trades.length).toBeGreaterThan(5);
    const out = written((w) => writeResultJson(w, result, result.fills.values(), result.trades.values()));
    expect(out).toBe(whole(result));
  });

  it('equals it with empty lists, and with lists far past one chunk (non-ASCII text included)', () => {
    const empty = { ...result, fills: [], trades: [] };
    expect(written((w) => writeResultJson(w, empty, [], []))).toBe(whole(empty));
    const first = result.fills[0] as BacktestFill;
    const many = Array.from({ length: 3000 }, (_, i): BacktestFill => ({ ...first, orderId: `${i}-ü→€`, timeMs: first.timeMs + i }));
    const big = { ...result, fills: many };
    const out = written((w) => writeResultJson(w, big, many, big.trades));
    expect(out.length).toBeGreaterThan(1 << 18);
    expect(out).toBe(whole(big));
  });

  it('writes as it reads: a long list is on disk before its iteration ends', () => {
    const file = path.join(tempDir('v4bot-result-file-'), 'out');
    const first = result.fills[0] as BacktestFill;
    let onDisk = 0;
    function* fills(): Generator<BacktestFill> {
      for (let i = 0; i < 20_000; i++) yield { ...first, orderId: String(i) };
      onDisk = statSync(file).size;
    }
    const { fills: _f, trades: _t, ...head } = result;
    writeFileInPieces(file, (w) => writeResultJson(w, head, fills(), []));
    // A writer holding the whole file until the end would have written nothing yet.
    expect(onDisk).toBeGreaterThan(statSync(file).size / 2);
  });

  it('equals it with the lists written to files first (ListWriter) and copied after the head, past several chunks', () => {
    const dir = tempDir('v4bot-result-file-');
    const first = result.fills[0] as BacktestFill;
    const many = Array.from({ length: 5000 }, (_, i): BacktestFill => ({ ...first, orderId: `${i}-ü→€`, timeMs: first.timeMs + i }));
    for (const [fills, trades] of [[many, result.trades], [[], []]] as const) {
      const full = { ...result, fills: [...fills], trades: [...trades] };
      const { fills: _f, trades: _t, ...head } = full;
      const listFile = (name: string, items: readonly object[]): string => {
        const file = path.join(dir, name);
        writeFileInPieces(file, (w) => {
          const list = new ListWriter(w);
          for (const item of items) list.add(item);
          list.end();
        });
        return file;
      };
      const out = written((w) => writeResultJsonOfFiles(w, head, listFile('fills', fills), listFile('trades', trades)));
      expect(out).toBe(whole(full));
    }
  });

  it('the head alone (no lists) gives the same file as the whole result', () => {
    const { fills, trades, ...head } = result;
    expect(written((w) => writeResultJson(w, head, fills, trades))).toBe(whole(result));
  });
});

describe('report.html in pieces', () => {
  it('equals renderReport', () => {
    const result = reportFixture();
    expect(written((w) => writeReport(w, reportInputOf(result)))).toBe(renderReport(result));
  });

  it('a failed writing leaves the error to the caller and the file closed', () => {
    const file = path.join(tempDir('v4bot-result-file-'), 'out');
    expect(() =>
      writeFileInPieces(file, (w) => {
        w.write('partial');
        throw new Error('stopped');
      }),
    ).toThrow(/stopped/);
    expect(readFileSync(file, 'utf8')).toBe('partial');
  });
});
