/**
 * The example candle strategy (strategies/ema-cross.ts, config/candles.json) backtested over the
 * shipped sample: the input's first candles warm its declared window up and the run starts after
 * them (said in result.json's inputs), it ticks once per closed 15-minute candle of the span, and
 * it trades.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/backtest/args.js';
import { backtest } from '../../../src/backtest/index.js';
import type { BacktestResult } from '../../../src/backtest/result.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const QUARTER = 15 * MIN;

describe('backtest of the candle strategy', () => {
  it('warms up on the first candles, ticks once per closed candle, and trades', async () => {
    const out = tempDir('v4bot-bt-candles-');
    const s = await backtest(parseArgs(['--config', 'config/candles.json', '--prices', 'samples/prices', '--out', out]), silentLogger());
    const { inputs } = s.result;
    // ema-cross declares 63 quarter hours: the first 63 of the sample (00:00 .. 15:45).
    expect(inputs.warmUp).toEqual({ fromMs: T0, untilMs: T0 + 63 * QUARTER, windows: 'BTC_USDT 15m x63' });
    expect(inputs.fromMs).toBe(T0 + 63 * QUARTER);
    expect(s.result.equity[0]?.timeMs).toBe(inputs.fromMs);
    // The sample's last row is 23:59 of day 3 (the end): its candle closes at 24:00, after it.
    expect(inputs.toMs).toBe(T0 + (3 * 1440 - 1) * MIN);
    const closedInSpan = Math.floor(inputs.toMs / QUARTER) - Math.floor(inputs.fromMs / QUARTER);
    expect(s.candleTicks).toBe(closedInSpan);
    expect(s.candleTicks).toBe(3 * 96 - 63 - 1);
    expect(s.result.total.fills).toBeGreaterThan(0);
    expect(s.result.strategies['ema1']?.fills).toBe(s.result.total.fills);
    const written = JSON.parse(readFileSync(path.join(out, 'result.json'), 'utf8')) as BacktestResult;
    expect(written.fills).toHaveLength(s.result.total.fills);
    expect(written.fills.every((f) => f.timeMs >= inputs.fromMs && f.market === 'BTC_USDT')).toBe(true);
    expect(written.inputs.warmUp).toEqual(inputs.warmUp);
  }, 240_000);
});
