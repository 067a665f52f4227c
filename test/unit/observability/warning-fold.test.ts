/**
 * Repeated identical warnings are folded (src/observability/warning-fold.ts): the first is
 * written, repeats within the window only counted, and one "repeated N times" line closes the
 * window (ManualClock). Different fields, bindings or levels are not folded together.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { createLogger, type Logger } from '../../../src/observability/logger.js';

function collecting(clock: ManualClock, windowMs = 60_000): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk.toString());
      cb();
    },
  });
  const logger = createLogger({ level: 'info', destination, fold: { clock, windowMs } });
  return { logger, lines: () => out.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('warning folding', () => {
  it('writes the first, counts the repeats, and closes the window with one count line', () => {
    const clock = new ManualClock();
    const { logger, lines } = collecting(clock);
    for (let i = 0; i < 5; i++) logger.warn({ market: 'BTC_USDT', code: 'TRANSIENT_TIMEOUT' }, 'venue unreachable');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ msg: 'venue unreachable', market: 'BTC_USDT' });
    clock.advance(59_999);
    expect(lines()).toHaveLength(1);
    clock.advance(1);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatchObject({ level: 40, msg: 'venue unreachable (repeated 4 times)', repeated: 4, windowMs: 60_000, market: 'BTC_USDT' });
    // A new window starts with the next one.
    logger.warn({ market: 'BTC_USDT', code: 'TRANSIENT_TIMEOUT' }, 'venue unreachable');
    expect(lines()).toHaveLength(3);
  });

  it('writes no count line when a warning was not repeated', () => {
    const clock = new ManualClock();
    const { logger, lines } = collecting(clock);
    logger.warn('once');
    clock.advance(120_000);
    expect(lines().map((l) => l['msg'])).toEqual(['once']);
  });

  it('keeps warnings apart when their fields, bindings or message differ, and never folds info or errors', () => {
    const clock = new ManualClock();
    const { logger, lines } = collecting(clock);
    logger.warn({ market: 'BTC_USDT' }, 'no price');
    logger.warn({ market: 'ETH_USDT' }, 'no price');
    logger.child({ strategy: 'a' }).warn({ market: 'BTC_USDT' }, 'no price');
    logger.child({ strategy: 'b' }).warn({ market: 'BTC_USDT' }, 'no price');
    logger.warn({ market: 'BTC_USDT' }, 'other');
    logger.warn(new Error('boom'), 'failed');
    logger.warn(new Error('bang'), 'failed');
    for (let i = 0; i < 3; i++) logger.info({ n: 1 }, 'tick');
    for (let i = 0; i < 2; i++) logger.error({ n: 1 }, 'bad');
    expect(lines()).toHaveLength(7 + 3 + 2);
    logger.child({ strategy: 'a' }).warn({ market: 'BTC_USDT' }, 'no price');
    expect(lines()).toHaveLength(12);
    clock.advance(60_000);
    expect(lines()[12]).toMatchObject({ strategy: 'a', msg: 'no price (repeated 1 times)', repeated: 1 });
  });
});
