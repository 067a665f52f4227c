/**
 * A clock skew beyond the tolerance is stored as a `clock_skew` alert once per excursion (so the
 * notifier, status and the dashboard see it), not on every pass while it lasts.
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

describe('clock skew alert', () => {
  it('is raised once when the skew leaves the tolerance, again after it came back and left again', async () => {
    const clock = new ManualClock();
    const dataDir = tempDir('v4bot-skew-');
    const config = loadConfig({ cwd: process.cwd(), env: { ENV_FILE: 'config/paper.env', BOT_DATA_DIR: dataDir } });
    const b: Base = { config, clock, logger: silentLogger(), store: openStore({ dataDir, clock, logger: silentLogger() }), metrics: new BotMetrics() };
    let skew = 0;
    const engine = { reconciler: { reconcileOnce: async () => ({ finishedMs: 1 }) }, gateway: { clockSkewMs: () => skew } } as unknown as Engine;
    const job = new ReconcileJob(b, engine, () => 0);
    await job.run();
    expect(b.store.alerts.list('clock_skew')).toHaveLength(0);
    skew = 5_000;
    await job.run();
    await job.run();
    expect(b.store.alerts.list('clock_skew').map((a) => a.detail)).toEqual(['local clock 5000 ms behind the venue']);
    skew = 0;
    await job.run();
    skew = -4_000;
    await job.run();
    expect(b.store.alerts.list('clock_skew').map((a) => a.detail)).toEqual(['local clock 5000 ms behind the venue', 'local clock 4000 ms ahead of the venue']);
    b.store.close();
  });
});
