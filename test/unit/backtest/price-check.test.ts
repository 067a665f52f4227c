/**
 * Loading checks every price row without building its decimals when its cells are plainly good
 * (price-check.ts), and the run reads such a row by building each decimal once from its cell. For
 * generated files, cell by cell of every shape (good, odd and bad), the check accepts and refuses
 * exactly the rows the full parser does, with the same message, and the run's reading gives the
 * same rows as the full parser, or the same refusal.
 */
import fc from 'fast-check';
import type { Decimal } from '../../../src/core/decimal.js';
import { describe, expect, it } from 'vitest';
import { comparePlain, parseTime } from '../../../src/backtest/price-check.js';
import { PriceCsvParser, type PriceRow } from '../../../src/backtest/price-csv.js';

const number = fc.oneof(
  fc.constantFrom('100', '100.5', '99.25', '101', '0100.50', '100.000', '0', '0.0', '00', '1', '.5', '1.', '-1', '1e5', ' 100', 'abc', '', '99.999999999999999999', '100.0000000000000000001'),
  fc.constantFrom('1.2.3', '.', '..', '0.', '00.00', '007', '1..2', '100,', '1_0', '１００', '100.5 ', '+100'),
  fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 99 })).map(([i, f]) => `${i}.${String(f).padStart(2, '0')}`),
);
/** ISO cells of every field value, in range or not (24:00, a leap second, 30 February, month 13). */
const isoCell = fc
  .tuple(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.constantFrom('', '.5', '.123', ':SS'))
  .map(([y, mo, d, h, mi, s, tail]) => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const day = `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}`;
    return tail === ':SS' ? `${day}Z` : `${day}:${two(s)}${tail}Z`;
  });

const time = fc.oneof(
  fc.integer({ min: 0, max: 50 }).map((m) => String(1_704_067_200 + m * 60)),
  fc.integer({ min: 0, max: 50 }).map((m) => new Date(Date.UTC(2024, 0, 1) + m * 60_000).toISOString().replace('.000', '')),
  fc.constantFrom('yesterday', '', '2024-01-01 00:00:00', ' 1704067200'),
  isoCell,
);
const market = fc.constantFrom('BTC_USDT', 'ETH_USDT', 'btc', ' BTC_USDT', '');

function outcome(f: () => { market: string; timeMs: number }): string {
  try {
    const r = f();
    return `${r.market}@${r.timeMs}`;
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

/** A row's every field as text (a Decimal as its digits and exponent: equal text, the same Decimal). */
function rowText(market: string, r: PriceRow): string {
  const d = (x: Decimal | undefined | null): string => (x === undefined || x === null ? String(x) : `${x.s}:${x.e}:${x.d.join('.')}`);
  return [market, r.timeMs, d(r.price), d(r.volume), d(r.candle?.open), d(r.candle?.high), d(r.candle?.low)].join(' ');
}

/** Each line through the full parser, through the check and through row(), each with its own state, compared line by line. */
function agree(header: string, lines: string[], defaultMarket: string | null): void {
  const [full, quick, run] = [0, 1, 2].map(() => new PriceCsvParser('p.csv', defaultMarket)) as [PriceCsvParser, PriceCsvParser, PriceCsvParser];
  for (const p of [full, quick, run]) p.header(header);
  lines.forEach((text, i) => {
    let fullText = '';
    const fromFull = outcome(() => {
      const { market, row } = full.fullRow(text, i + 2);
      fullText = rowText(market, row);
      return { market, timeMs: row.timeMs };
    });
    expect(outcome(() => quick.check(text, i + 2)), `line ${i + 2}: ${text}`).toBe(fromFull);
    let runText = '';
    const fromRun = outcome(() => {
      const { market, row } = run.row(text, i + 2);
      runText = rowText(market, row);
      return { market, timeMs: row.timeMs };
    });
    expect(fromRun, `line ${i + 2}: ${text}`).toBe(fromFull);
    expect(runText, `line ${i + 2}: ${text}`).toBe(fullText);
  });
}

describe('price row check without decimals', () => {
  it('accepts and refuses candle rows exactly as the full parser, with the same message', () => {
    const row = fc.tuple(time, number, number, number, number, number).map((cells) => cells.join(','));
    const cut = fc.tuple(row, fc.integer({ min: 1, max: 5 })).map(([r, n]) => r.split(',').slice(0, n).join(','));
    fc.assert(fc.property(fc.array(fc.oneof(row, row, row, cut), { maxLength: 30 }), (lines) => agree('time,open,high,low,close,volume', lines, 'BTC_USDT')), { numRuns: 300 });
  });

  it('accepts and refuses candle rows at and around their bounds exactly as the full parser', () => {
    // Four prices a few cents apart: the high and the low bound the candle, or miss by a cent.
    const cents = fc.integer({ min: 9_998, max: 10_002 }).map((n) => (n / 100).toFixed(2));
    const row = fc.tuple(time, cents, cents, cents, cents, fc.constantFrom('1', '0', '0.5')).map((cells) => cells.join(','));
    fc.assert(fc.property(fc.array(row, { maxLength: 30 }), (lines) => agree('time,open,high,low,close,volume', lines, 'BTC_USDT')), { numRuns: 200 });
  });

  it('accepts and refuses price rows with a market column exactly as the full parser', () => {
    const row = fc.tuple(market, time, number).map((cells) => cells.join(','));
    fc.assert(fc.property(fc.array(row, { maxLength: 30 }), (lines) => agree('market,time,price', lines, null)), { numRuns: 200 });
  });

  it('accepts and refuses time,price rows with and without volume exactly as the full parser', () => {
    const withVolume = fc.tuple(time, number, number).map((cells) => cells.join(','));
    fc.assert(fc.property(fc.array(withVolume, { maxLength: 30 }), (lines) => agree('time,price,volume', lines, 'BTC_USDT')), { numRuns: 200 });
    const plain = fc.tuple(time, number).map((cells) => cells.join(','));
    fc.assert(fc.property(fc.array(plain, { maxLength: 30 }), (lines) => agree('price,time', lines, 'BTC_USDT')), { numRuns: 200 });
  });

  it('property: an ISO time cell reads as Date reads it, whatever day came before it', () => {
    const reference = (cell: string): number | undefined => {
      const ms = new Date(cell).getTime();
      return Number.isNaN(ms) ? undefined : ms;
    };
    fc.assert(
      fc.property(fc.array(isoCell, { minLength: 1, maxLength: 20 }), (cells) => {
        for (const cell of cells) expect(parseTime(cell), cell).toBe(reference(cell));
      }),
      { numRuns: 500 },
    );
    expect(parseTime('2024-01-01T24:00:00Z')).toBe(Date.UTC(2024, 0, 2));
    expect(parseTime('2024-01-01T23:59:60Z')).toBeUndefined();
    expect(parseTime('2024-02-31T10:00:00Z')).toBe(Date.UTC(2024, 2, 2, 10));
  });

  it('compares plain decimals by value, whatever their leading and trailing zeros', () => {
    const p = (int: string, frac: string): { int: string; frac: string } => ({ int, frac });
    expect(comparePlain(p('100', '5'), p('100', '45'))).toBeGreaterThan(0);
    expect(comparePlain(p('99', '9'), p('100', ''))).toBeLessThan(0);
    expect(comparePlain(p('', '5'), p('', '5'))).toBe(0);
  });
});
