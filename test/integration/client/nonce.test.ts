/** Nonces as the server receives them: strictly increasing, restored from a mark, window mode. */
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { NoncePersistence } from '../../../src/model/nonce.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { fixtureClient, wireDeal, wireOrder } from '../../support/fixture-client.js';

const server = useFixtureServer();
beforeEach(() => {
  server.setDefault('/api/v4/main-account/balance', { json: { BTC: { main_balance: '1' } } });
  server.setDefault('/api/v4/trade-account/executed-history', { json: [wireDeal()] });
  // Echoes the cancelled orderId: a reply about another order would be ambiguous.
  server.setDefault('/api/v4/order/cancel', (r) => ({
    delayMs: 2,
    json: wireOrder({ orderId: (JSON.parse(r.body) as { orderId: number }).orderId, status: 'CANCELED' }),
  }));
});

const nonces = (): number[] => server.requests.map((r) => Number((JSON.parse(r.body) as { nonce: string }).nonce));

describe('nonces over HTTP', () => {
  it('strict: 50 concurrent calls over three pools arrive strictly increasing', async () => {
    const client = fixtureClient(server.url);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 3 === 0
          ? client.mainBalance()
          : i % 3 === 1
            ? client.executedHistory({ market: 'BTC_USDT' })
            : client.cancelOrder({ market: 'BTC_USDT', orderId: i }),
      ),
    );
    const n = nonces();
    expect(n).toHaveLength(50);
    for (let i = 1; i < n.length; i++) expect(n[i]).toBeGreaterThan(n[i - 1]!);
    expect(client.lastNonce()).toBe(n[49]);
    await client.close();
  });

  it('restores from the persisted high-water mark and starts above it', async () => {
    const clock = new ManualClock(1_000_000);
    const saved: number[] = [];
    const persistence: NoncePersistence = { load: () => 5_000_000, save: (v) => saved.push(v) };
    const client = fixtureClient(server.url, { clock, noncePersistence: persistence, nonceReserveAheadMs: 1000 });
    await client.mainBalance();
    await client.mainBalance();
    expect(nonces()).toEqual([5_000_001, 5_000_002]);
    expect(saved).toEqual([5_001_001]);
    await client.close();
  });

  it('window mode: nonceWindow true in the signed body, unique ms nonces, concurrent', async () => {
    const client = fixtureClient(server.url, { nonceMode: 'window' });
    await Promise.all(Array.from({ length: 20 }, () => client.mainBalance()));
    const bodies = server.bodiesTo('/api/v4/main-account/balance');
    expect(bodies.every((b) => b['nonceWindow'] === true)).toBe(true);
    const n = nonces();
    expect(new Set(n).size).toBe(20);
    expect(n.every((x) => Math.abs(x - Date.now()) < 5000)).toBe(true);
    await client.close();
  });
});
