/**
 * The in-process venue's account change mark lets the reconciler skip passes over an unchanged
 * venue (src/engine/reconcile-shortcut.ts). A backtest with the mark and one with it turned off
 * (every pass in full, as over HTTP) on three hours of the committed sample with the default
 * config: the same result, the same venue deals, with fewer history scans.
 */
import { describe, expect, it, vi } from 'vitest';
import { runSample } from '../../support/sample-backtest.js';
import type * as InProcessVenue from '../../../src/backtest/in-process-venue.js';

const gateways = vi.hoisted(() => ({ changeMark: true, scans: 0 }));

// The real in-process gateway, with the mark on or off, counting its history scans.
vi.mock('../../../src/backtest/in-process-venue.js', async (importOriginal) => {
  const m = await importOriginal<typeof InProcessVenue>();
  const inProcessGateway: typeof m.inProcessGateway = (api, account, options = {}) => {
    const g = m.inProcessGateway(api, account, { ...options, changeMark: gateways.changeMark });
    const fills = g.fills.bind(g);
    g.fills = (range) => {
      gateways.scans++;
      return fills(range);
    };
    return g;
  };
  return { ...m, inProcessGateway };
});

async function run(changeMark: boolean) {
  gateways.changeMark = changeMark;
  gateways.scans = 0;
  const out = await runSample('in-process', 'worker', 3);
  return { ...out, scans: gateways.scans };
}

describe('backtest with and without the account change mark', () => {
  it('gives the same result and the same venue deals, with fewer history scans', async () => {
    const withMark = await run(true);
    const without = await run(false);
    expect(without.result.total.fills).toBeGreaterThan(10);
    expect(JSON.stringify(withMark.result)).toBe(JSON.stringify(without.result));
    expect(withMark.truth).toEqual(without.truth);
    expect(withMark.jobs).toBe(without.jobs);
    expect(withMark.scans).toBeLessThan(without.scans);
  }, 240_000);
});
