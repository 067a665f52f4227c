/**
 * The reconcile job keeps what `/healthz` reports and raises one alert per new run of absurd
 * reply `Date` headers (the client ignores them for the clock skew and counts them).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { Base, Engine } from '../../../src/daemon/engine.js';
import { ReconcileJob } from '../../../src/daemon/jobs.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { BotMetrics } from '../../../src/observability/metrics.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

function base(): Base {
  const clock = new ManualClock();
  const dataDir = tempDir('v4bot-rj-');
  const config = loadConfig({ cwd: process.cwd(), env: { ENV_FILE: 'config/paper.env', BOT_DATA_DIR: dataDir } });
  return { config, clock, logger: silentLogger(), store: openStore({ dataDir, clock, logger: silentLogger() }), metrics: new BotMetrics() };
}

/** Only what the job touches: one reconciliation pass and the measured skew. */
function engineStub(fail = false): Engine {
  const reconciler = { reconcileOnce: async () => (fail ? Promise.reject(new Error('venue down')) : { finishedMs: 42 }) };
  return { reconciler, gateway: { clockSkewMs: () => undefined } } as unknown as Engine;
}

describe('ReconcileJob', () => {
  it('alerts once per new run of absurd Date headers', async () => {
    const b = base();
    let rejected = 0;
    const job = new ReconcileJob(b, engineStub(), () => rejected);
    await job.run();
    expect(b.store.alerts.list('absurd_date_header')).toHaveLength(0);
    rejected = 3;
    await job.run();
    await job.run();
    expect(b.store.alerts.list('absurd_date_header')).toHaveLength(1);
    rejected = 4;
    await job.run();
    expect(b.store.alerts.list('absurd_date_header')).toHaveLength(2);
    expect(job.state).toEqual({ ok: true, lastSuccessMs: 42, lastError: null });
    b.store.close();
  });

  it('a failed pass is reported, not swallowed', async () => {
    const b = base();
    const job = new ReconcileJob(b, engineStub(true), () => 0);
    await expect(job.run()).rejects.toThrow('venue down');
    expect(job.state.ok).toBe(false);
    b.store.close();
  });
});
