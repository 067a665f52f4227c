/**
 * `npm run status` shows the last balance audit from the store: none yet, then its outcome,
 * window and the assets it could not explain (JSON and text from the same object).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { buildStatus } from '../../../src/cli/status-model.js';
import { renderText } from '../../../src/cli/status-text.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const AT = Date.UTC(2026, 10, 24, 10, 0, 0);
const FROM = AT - 3_600_000;

describe('status: the balance audit', () => {
  it('says when none ran, then shows the last one with its unexplained assets', () => {
    const dir = tempDir();
    const clock = new ManualClock(AT);
    const store = openStore({ dataDir: dir, clock, logger: silentLogger() });
    store.close();
    expect(buildStatus(dir, clock)['audit']).toBeNull();
    expect(renderText({ ...buildStatus(dir, clock) })).toContain('Balance audit: not run yet');

    const again = openStore({ dataDir: dir, clock, logger: silentLogger() });
    const asset = (name: string, verdict: string, difference: string) => ({ asset: name, verdict, fromMs: FROM, toMs: AT, actual: difference, expected: '0', difference, allowed: '0.0001' });
    again.tx(() => again.audit.record(AT, 'unexplained', FROM, { atMs: AT, outcome: 'unexplained', fromMs: FROM, assets: [asset('BTC', 'unexplained', '0.01'), asset('USDT', 'deferred', '0')], externalFills: 1 }));
    again.close();
    const st = buildStatus(dir, clock);
    expect(st['audit']).toMatchObject({ atMs: AT, outcome: 'unexplained', fromMs: FROM, externalFills: 1 });
    const text = renderText(st);
    expect(text).toContain('Balance audit: unexplained at 2026-11-24T10:00:00.000Z (window from 2026-11-24T09:00:00.000Z)');
    expect(text).toMatch(/BTC\s+unexplained\s+0\.01\s+0\s+0\.01\s+0\.0001/);
    expect(text).toMatch(/USDT\s+deferred/);
  });
});
