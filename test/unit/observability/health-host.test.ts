/** The health server answers only requests addressed to a loopback name (DNS rebinding). */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../../../src/observability/health.js';

let server: HealthServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** GET `path` with exactly this `Host` line (or none); resolves the status code. */
function getWithHost(port: number, path: string, host: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0)));
    const hostLine = host === null ? '' : `Host: ${host}\r\n`;
    socket.write(`GET ${path} HTTP/1.0\r\n${hostLine}Connection: close\r\n\r\n`);
  });
}

describe('health server Host check', () => {
  it('refuses /healthz and /metrics for a non-loopback Host and serves loopback names', async () => {
    server = await startHealthServer({
      port: 0,
      health: () => ({
        status: 'ok', reasons: [], mode: 'paper', tradingState: 'ACTIVE', reconcile: { ok: true, lastSuccessMs: 1, lastError: null },
        jobs: {}, unknownOrders: 0, quarantined: [], clockSkewMs: null, nowMs: 1,
      }),
      metrics: () => Promise.resolve('m 1\n'),
      metricsContentType: 'text/plain',
    });
    const port = server.port;
    for (const path of ['/healthz', '/metrics']) {
      for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1.nip.example', null]) {
        expect(await getWithHost(port, path, host)).toBe(403);
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`]) {
        expect(await getWithHost(port, path, host)).toBe(200);
      }
    }
  });
});
