/**
 * What a module declares about candles, checked at load like its params: `history(params)` gives
 * the windows (data back from the sandbox), a `candle:<timeframe>` schedule (from the module or
 * the config) is accepted for a module that declares its market; anything else is a ConfigError
 * naming the key.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'node-cron';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { loadStrategies, type InstanceSpec, type LoaderOptions } from '../../../src/strategy-api/host.js';
import { tempDir } from '../../support/temp-dir.js';

const API = path.resolve('src/strategy-api/index.js');
const base: LoaderOptions = { dirs: [path.resolve('strategies')], extensions: ['.ts'], knownMarkets: new Set(['BTC_USDT', 'BTC_PERP']), validateSchedule: validate };
const ema = (over: Partial<InstanceSpec> = {}): InstanceSpec => ({ index: 0, module: 'ema-cross', id: 'e1', params: { market: 'BTC_USDT', amount: '0.01' }, ...over });

async function refusal(p: Promise<unknown>): Promise<ConfigError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

function moduleWith(history: string): LoaderOptions {
  const dir = tempDir('v4bot-history-');
  const code = [
    `import { defineStrategy, p, z } from ${JSON.stringify(API)};`,
    'export default defineStrategy({',
    "  name: 'h', params: z.strictObject({ market: p.market() }), schedule: 'candle:1h',",
    `  history: ${history},`,
    '  onTick: () => [],',
    '});',
  ].join('\n');
  writeFileSync(path.join(dir, 'h.ts'), `${code}\n`);
  return { ...base, dirs: [dir] };
}

describe('declared candle history and candle schedules', () => {
  it('loads the windows a module declares for its params, and its candle schedule', async () => {
    const [e] = await loadStrategies([ema({ params: { market: 'BTC_USDT', amount: '0.01', slow: 30 } })], base);
    expect(e?.history).toEqual([{ market: 'BTC_USDT', timeframe: '15m', count: 90 }]);
    expect(e?.schedule).toBe('candle:15m');
    const [over] = await loadStrategies([ema({ schedule: 'candle:1h' })], base);
    expect(over?.schedule).toBe('candle:1h');
    const [grid] = await loadStrategies([{ index: 0, module: 'spot-grid', id: 'g1', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' } }], base);
    expect(grid?.history).toEqual([]);
  });

  it('refuses a bad candle schedule, or one without a declared market, naming the key', async () => {
    const bad = await refusal(loadStrategies([ema({ schedule: 'candle:2h' })], base));
    expect(bad.context['keys']).toEqual(['strategies[0].schedule']);
    expect(bad.message).toContain('expected one of candle:1m, candle:5m, candle:15m, candle:1h, candle:4h, candle:1d (or a cron expression), found "candle:2h"');
    const grid = { index: 0, module: 'spot-grid', id: 'g1', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' }, schedule: 'candle:1m' };
    const none = await refusal(loadStrategies([grid], base));
    expect(none.context['keys']).toEqual(['strategies[0].schedule']);
    expect(none.message).toContain('with no history declared');
  });

  it('refuses a history of an unknown market, a bad timeframe or count, or one that throws', async () => {
    const spec: InstanceSpec = { index: 0, module: 'h', id: 'h1', params: { market: 'BTC_USDT' } };
    const cases: Array<[string, string]> = [
      ["() => [{ market: 'ETH_USDT', timeframe: '1h', count: 5 }]", 'history[0].market: expected a configured market, found "ETH_USDT"'],
      ["(p) => [{ market: p.market, timeframe: '2h', count: 5 }]", 'history[0].timeframe: expected one of 1m, 5m, 15m, 1h, 4h, 1d, found "2h"'],
      ["(p) => [{ market: p.market, timeframe: '1h', count: 0 }]", 'history[0].count: expected an integer from 1 to 5000, found 0'],
      ["() => { throw new Error('no history today'); }", 'history(params): '],
    ];
    for (const [history, message] of cases) {
      const err = await refusal(loadStrategies([spec], moduleWith(history)));
      expect(err.context['keys']).toEqual(['strategies[0].module']);
      expect(err.message).toContain(message);
    }
    const [ok] = await loadStrategies([spec], moduleWith("(p) => [{ market: p.market, timeframe: '1h', count: 5 }, { market: p.market, timeframe: '1h', count: 9 }]"));
    expect(ok?.history).toEqual([{ market: 'BTC_USDT', timeframe: '1h', count: 9 }]);
  });
});
