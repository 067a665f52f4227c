import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'node-cron';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { loadStrategies, type InstanceSpec, type LoaderOptions } from '../../../src/strategy-api/host.js';
import { tempDir } from '../../support/temp-dir.js';

const options: LoaderOptions = {
  dirs: [path.resolve('strategies')],
  extensions: ['.ts'],
  knownMarkets: new Set(['BTC_USDT', 'BTC_PERP']),
  validateSchedule: validate,
};

const grid = (over: Partial<InstanceSpec> = {}): InstanceSpec => ({
  index: 0,
  module: 'spot-grid',
  id: 'g1',
  params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' },
  ...over,
});

async function refusal(p: Promise<unknown>): Promise<ConfigError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadStrategies', () => {
  it('loads several instances of one module with different params, applying defaults', async () => {
    const loaded = await loadStrategies(
      [grid(), grid({ index: 1, id: 'g2', params: { market: 'BTC_USDT', levels: 5, spacingPct: '1', orderAmount: '0.002', postOnly: false }, schedule: '*/2 * * * * *' })],
      options,
    );
    expect(loaded.map((l) => l.id)).toEqual(['g1', 'g2']);
    expect(loaded[0]?.params).toMatchObject({ levels: 2, postOnly: true });
    expect(loaded[1]?.params).toMatchObject({ levels: 5, postOnly: false });
    expect(loaded[0]?.schedule).toBe('*/10 * * * * *');
    expect(loaded[1]?.schedule).toBe('*/2 * * * * *');
    expect(loaded.map((l) => l.name)).toEqual(['spot-grid', 'spot-grid']);
    // Data only: the daemon holds no function of the module.
    expect(loaded[0]?.definition).toBeUndefined();
  });

  it('loads every example strategy', async () => {
    const loaded = await loadStrategies(
      [
        grid(),
        { index: 1, module: 'collateral-signal', id: 'c1', params: { market: 'BTC_PERP', amount: '0.01', lookbackTicks: 3, thresholdPct: '0.1', stopLossPct: '1', takeProfitPct: '2' } },
        { index: 2, module: 'treasury', id: 't1', params: { minQuoteBalance: '100' } },
      ],
      options,
    );
    expect(loaded.map((l) => l.name)).toEqual(['spot-grid', 'collateral-signal', 'treasury']);
  });

  it('loads several instances at a time to the same outcome, in config order, and refuses the first bad one in config order', async () => {
    const specs: InstanceSpec[] = [
      grid(),
      { index: 1, module: 'treasury', id: 't1', params: { minQuoteBalance: '100' } },
      grid({ index: 2, id: 'g2', schedule: '*/2 * * * * *' }),
    ];
    const oneByOne = await loadStrategies(specs, options);
    const together = await loadStrategies(specs, { ...options, concurrency: 3 });
    expect(together).toEqual(oneByOne);
    // The later bad instance may fail first in time: the refusal is still the earlier one's.
    const bad = [grid(), { ...grid({ index: 1, id: 'x' }), params: { market: 'BTC_USDT', levels: 0, spacingPct: '0.5', orderAmount: '0.001' } }, grid({ index: 2, module: 'nope' })];
    expect((await refusal(loadStrategies(bad, { ...options, concurrency: 3 }))).context['keys']).toEqual(['strategies[1].params.levels']);
  });

  it('names the module key for an unknown module', async () => {
    const err = await refusal(loadStrategies([grid({ module: 'nope' })], options));
    expect(err.context['keys']).toEqual(['strategies[0].module']);
  });

  it('names the param key for invalid params', async () => {
    const err = await refusal(loadStrategies([grid({ index: 3, params: { market: 'BTC_USDT', levels: 0, spacingPct: '0.5', orderAmount: '0.001' } })], options));
    expect(err.context['keys']).toEqual(['strategies[3].params.levels']);
    expect(err.message).toContain('found 0');
  });

  it('refuses unknown params', async () => {
    const err = await refusal(loadStrategies([grid({ params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001', lvls: 3 } })], options));
    expect(err.context['keys']).toEqual(['strategies[0].params.lvls']);
  });

  it('refuses a market that is not configured', async () => {
    const err = await refusal(loadStrategies([grid({ params: { market: 'ETH_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' } })], options));
    expect(err.context['keys']).toEqual(['strategies[0].params.market']);
    expect(err.message).toContain('expected a market configured under "markets" (BTC_USDT, BTC_PERP), found "ETH_USDT"');
  });

  it('names the param and the problem for a money param given as a JSON number', async () => {
    const err = await refusal(loadStrategies([grid({ params: { market: 'BTC_USDT', levels: 2, spacingPct: 0.5, orderAmount: '0.001' } })], options));
    expect(err.context['keys']).toEqual(['strategies[0].params.spacingPct']);
    expect(err.message).toContain('not a JSON number');
    expect(err.message).toContain('found 0.5');
  });

  it('refuses a module that does not default-export defineStrategy', async () => {
    const dir = tempDir('v4bot-strat-');
    writeFileSync(path.join(dir, 'plain.mjs'), 'export default { name: "plain", onTick() {} };\n');
    writeFileSync(path.join(dir, 'broken.mjs'), 'throw new Error("cannot load");\n');
    const opts = { ...options, dirs: [dir], extensions: ['.mjs'] };
    expect((await refusal(loadStrategies([grid({ module: 'plain' })], opts))).context['keys']).toEqual(['strategies[0].module']);
    expect((await refusal(loadStrategies([grid({ module: 'broken' })], opts))).message).toContain('cannot load');
  });
});
