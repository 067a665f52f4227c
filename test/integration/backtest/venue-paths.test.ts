/**
 * The in-process venue (src/backtest/in-process-api.ts, in-process-venue.ts) against the wire path
 * (`--venue http`: the simulator's HTTP server and the API client) on six hours of the committed
 * sample with the default config: the same venue deals, the same fills in the store, the same
 * PnL, byte for byte. Likewise strategies in the run's thread against sandboxed workers. What the in-process path leaves out (HTTP, signing, JSON, the queue) must
 * change nothing the engine decides.
 */
import { describe, expect, it } from 'vitest';
import type { VenueKind } from '../../../src/backtest/sim-venue.js';
import type { StrategiesIn } from '../../../src/backtest/engine-wiring.js';
import { runSample } from '../../support/sample-backtest.js';

const HOURS = 6;

function run(venue: VenueKind, strategiesIn: StrategiesIn = 'worker', hours = HOURS) {
  return runSample(venue, strategiesIn, hours);
}

describe('backtest venue paths', () => {
  it('in process and over HTTP: identical venue deals, fills and PnL on six hours of the sample', async () => {
    const inProcess = await run('in-process');
    const wire = await run('http');
    expect(inProcess.result.total.fills).toBeGreaterThan(10);
    expect(inProcess.truth).toEqual(wire.truth);
    expect(inProcess.result.fills).toEqual(wire.result.fills);
    expect(inProcess.result.total).toEqual(wire.result.total);
    expect(inProcess.result.strategies).toEqual(wire.result.strategies);
    expect(JSON.stringify(inProcess.result)).toBe(JSON.stringify(wire.result));
    expect(inProcess.jobs).toBe(wire.jobs);
  }, 240_000);

  // Last in this file: the thread mode locks down this process's intrinsics (ses lockdown), after
  // which a new pino logger can no longer set Error.prepareStackTrace.
  it('strategies in the run\'s thread and in sandboxed workers: the same result', async () => {
    const worker = await run('in-process', 'worker', 2);
    const thread = await run('in-process', 'thread', 2);
    expect(thread.result.total.fills).toBeGreaterThan(5);
    expect(JSON.stringify(thread.result)).toBe(JSON.stringify(worker.result));
  }, 240_000);
});
