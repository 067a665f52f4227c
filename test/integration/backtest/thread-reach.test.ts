/**
 * A strategy in the backtest's thread can change nothing the engine computes with (docs/sandbox.md
 * § What a strategy can reach): a strategy that walks everything reachable from what its hooks are
 * handed (the context with orders, fills, a position and candles, a fill event) and from the author
 * API finds every object frozen but its own params and the decimals it was handed; one that writes
 * garbage over every one of those decimals at every tick and fill leaves the run exactly as the
 * same strategy that does not (the venue's deals, the result), and its tries to change the Decimal
 * class, the state or the logger are refused, each of them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { SystemClock } from '../../../src/core/clock.js';
import { runBacktest } from '../../../src/backtest/run.js';
import { buildResult, truthFills } from '../../../src/backtest/collect.js';
import { loadStrategies } from '../../../src/strategy-api/host.js';
import { sampleInputs } from '../../support/sample-backtest.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOSTILE = path.join(here, '../../unit/engine/sandbox-worker/fixtures/hostile');

/** A backtest of `hours` of the sample with the fixture `module` as its one strategy, in the run's thread. */
async function prepare(module: string, hours: number, extra: Record<string, unknown> = {}) {
  const s = await sampleInputs('in-process', 'thread', hours);
  const params = { market: 'BTC_USDT', ...extra };
  const loaded = await loadStrategies([{ index: 0, module, id: module, params }], {
    dirs: [HOSTILE],
    extensions: ['.ts'],
    knownMarkets: new Set(Object.keys(s.inputs.config.markets)),
    validateSchedule: () => true,
    clock: new SystemClock(),
  });
  const base = s.inputs.config.strategies[0];
  if (base === undefined) throw new Error('the default config has a strategy');
  const config = { ...s.inputs.config, strategies: [{ ...base, module, id: module, params }] };
  return () =>
    runBacktest({ ...s.inputs, config, strategies: loaded }, (st) => {
      const state = st.wired.store.strategyState(module);
      return {
        ...{ changeable: state.get('changeable'), ticks: state.get('ticks'), fills: state.get('fills'), tries: state.get('tries'), scribbled: state.get('scribbled') },
        ...{ result: buildResult(st, s.meta), truth: truthFills(st) },
      };
    });
}

// Every input (its logger included) made before the first run locks the thread down for its strategies.
const runs = { reach: prepare('reach', 2), scribble: prepare('scribble', 2, { scribble: true }), quiet: prepare('scribble', 2, { scribble: false }) };

describe("what a strategy in the run's thread can reach", () => {
  it('finds everything frozen but its own params, through orders, fills, positions, candles and a fill event', async () => {
    const out = await (await runs.reach)();
    expect(out.ticks).toBeGreaterThan(60);
    expect(out.fills).toBeGreaterThanOrEqual(1);
    expect(out.changeable).toEqual(['ctx.params']);
  });

  it('leaves the run as it is when the strategy writes over every decimal it is handed, and refuses its other changes', async () => {
    const scribbled = await (await runs.scribble)();
    const quiet = await (await runs.quiet)();
    expect(scribbled.scribbled).toBeGreaterThan(500);
    expect(scribbled.truth.length).toBeGreaterThanOrEqual(1);
    expect(scribbled.truth).toEqual(quiet.truth);
    expect(scribbled.result).toEqual(quiet.result);
    const tries = scribbled.tries as string[];
    expect(tries).toHaveLength(15);
    expect(tries.filter((t) => !t.endsWith(':refused'))).toEqual([]);
    expect(new Decimal('1').plus('2').toFixed()).toBe('3');
    expect(ZERO.isZero()).toBe(true);
    expect(Decimal.precision).toBe(60);
  });
});
