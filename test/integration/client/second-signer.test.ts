/**
 * Two daemons on one API key without a shared store: the venue refuses nonces at random and
 * each process looks healthy on its own. The client notices that its own increasing nonces are
 * refused and raises one alert naming the likely cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import { createApiClient, type ApiClient } from '../../../src/exchange/api-client.js';
import type { ClientAlert } from '../../../src/exchange/request-queue.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.js';
import { saturate } from '../../support/saturate.js';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

function daemonClient(alerts: ClientAlert[]): ApiClient {
  return createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock(), retry: { attempts: 1 }, onAlert: (a) => alerts.push(a) });
}

describe('a second signer on the API key', () => {
  it('alone, a daemon sees no nonce refusal; with a second one on the key, both are told why', async () => {
    const aAlerts: ClientAlert[] = [];
    const a = daemonClient(aAlerts);
    const alone = await saturate(() => a.mainBalance(), 400, 4);
    expect(alone['NONCE_REJECTED'] ?? 0).toBe(0);
    expect(a.requestQueueHealth().nonceCollisionSuspected).toBe(false);

    const bAlerts: ClientAlert[] = [];
    const b = daemonClient(bAlerts);
    const [ra, rb] = await Promise.all([saturate(() => a.mainBalance(), 1500, 4), saturate(() => b.mainBalance(), 1500, 4)]);
    expect((ra['NONCE_REJECTED'] ?? 0) + (rb['NONCE_REJECTED'] ?? 0)).toBeGreaterThan(0);
    const suspected = [a, b].filter((c) => c.requestQueueHealth().nonceCollisionSuspected);
    expect(suspected.length).toBeGreaterThan(0);
    const alerts = [...aAlerts, ...bAlerts].filter((x) => x.kind === 'nonce_collision');
    // One alert per client at most, however many refusals.
    expect(alerts.length).toBe(suspected.length);
    expect(alerts[0]!.message).toMatch(/same API key/);
    await Promise.all([a.close(), b.close()]);
  });
});
