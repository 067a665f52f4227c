/**
 * Declared candle windows cross into a strategy's worker as decimal strings and come back as
 * Decimals, exact, with an unknown volume and a missing open candle kept as null; a snapshot
 * without candles carries none.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../src/core/decimal.js';
import { decodeSnapshot, encodeSnapshot } from '../../../../src/engine/sandbox-worker/codec.js';
import type { CandleView } from '../../../../src/strategy-api/host.js';
import { snapshot } from '../../../support/daemon-ctx.js';

const candle = (openMs: number, close: string, volume: string | null, closed = true): CandleView => ({
  market: 'BTC_USDT',
  timeframe: '1h',
  openMs,
  closeMs: openMs + 3_600_000,
  open: new Decimal('60000.000000000000000001'),
  high: new Decimal('60100.5'),
  low: new Decimal('59900.25'),
  close: new Decimal(close),
  volume: volume === null ? null : new Decimal(volume),
  minutes: 59,
  closed,
});

describe('candle windows across the worker boundary', () => {
  it('round-trips exactly, nulls kept', () => {
    const windows = [
      { market: 'BTC_USDT', timeframe: '1h' as const, want: 3, closed: [candle(0, '60050.1', '12.5'), candle(3_600_000, '60070', null)], open: candle(7_200_000, '60080', null, false) },
      { market: 'BTC_USDT', timeframe: '1d' as const, want: 1, closed: [], open: null },
    ];
    const wire = JSON.parse(JSON.stringify(encodeSnapshot(snapshot({ candles: windows })))) as ReturnType<typeof encodeSnapshot>;
    expect(wire.candles?.[0]?.closed[0]?.open).toBe('60000.000000000000000001');
    expect(wire.candles?.[0]?.closed[1]?.volume).toBeNull();
    const back = decodeSnapshot(wire).candles;
    expect(back).toEqual(windows);
    expect(back?.[0]?.closed.every((c) => Decimal.isDecimal(c.close) && Decimal.isDecimal(c.open))).toBe(true);
    expect(encodeSnapshot(snapshot()).candles).toBeUndefined();
  });
});
