/**
 * Client overhead: a signed private bulk of 20 through the full client (limiter, nonce, signing,
 * send lane, transport, classification, parsing of 20 orders) against the same prebuilt request
 * sent with bare node:http (the floor), both on a loopback keep-alive fixture server.
 * Sequential (strict nonces: one private request in flight) and 16-way concurrent (window mode).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { SystemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createApiClient, type ApiClient } from '../../src/exchange/client.js';
import type { LimitOrderRequest } from '../../src/exchange/gateway.js';
import { sign } from '../../src/exchange/signing.js';
import { FixtureServer } from '../support/fixture-server.js';
import { wireOrder } from '../support/fixture-client.js';

const N = 3000;
const WARMUP = 300;

const orders: LimitOrderRequest[] = Array.from({ length: 20 }, (_, i) => ({
  market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec(String(40000 + i)), clientOrderId: `bench-${i}`,
}));
const reply = JSON.stringify(orders.map((o, i) => ({ result: wireOrder({ orderId: 1000 + i, clientOrderId: o.clientOrderId }), error: null })));

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(concurrency: number, once: () => Promise<void>): Promise<{ rps: number; p50: number; p99: number }> {
  for (let i = 0; i < WARMUP; i++) await once();
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < N) {
        const t = performance.now();
        await once();
        lat.push(performance.now() - t);
      }
    }),
  );
  const total = performance.now() - start;
  lat.sort((a, b) => a - b);
  return { rps: (N / total) * 1000, p50: pct(lat, 50), p99: pct(lat, 99) };
}

function bareSender(url: string): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const { port } = new URL(url);
  // The same body the client sends (20 orders), signed once up front.
  const wire = orders.map((o) => ({
    market: o.market, side: o.side, amount: o.amount.toFixed(), price: o.price.toFixed(), postOnly: false, ioc: false, clientOrderId: o.clientOrderId,
  }));
  const signed = sign({ apiKey: 'k', apiSecret: 's', path: '/api/v4/order/bulk', fields: { orders: wire, stopOnFail: false }, nonce: 1, nonceWindow: false });
  const headers = { ...signed.headers, 'Content-Length': String(Buffer.byteLength(signed.body)) };
  return () =>
    new Promise<void>((resolve, reject) => {
      const r = http.request({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/api/v4/order/bulk', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve();
        });
      });
      r.on('error', reject);
      r.end(signed.body);
    });
}

function client(url: string, nonceMode: 'strict' | 'window'): ApiClient {
  return createApiClient({
    baseUrl: url, apiKey: 'bench-key', apiSecret: 'bench-secret', nonceMode, clock: new SystemClock(),
    rateLimits: { pools: { orders: { limit: 1e9, windowMs: 10_000, safetyMargin: 1 } } },
  });
}

export default async function run(): Promise<void> {
  const server = await FixtureServer.start();
  server.setDefault('/api/v4/order/bulk', () => {
    server.requests.length = 0; // the bench does not need the record; keep memory flat
    return { raw: reply };
  });
  const rows: string[] = [];
  const fmt = (n: number, d = 0): string => n.toFixed(d);
  for (const [label, conc, mode] of [['sequential (strict)', 1, 'strict'], ['16 concurrent (window)', 16, 'window']] as const) {
    const bare = await measure(conc, bareSender(server.url));
    const c = client(server.url, mode);
    const full = await measure(conc, async () => {
      const res = await c.bulkLimitOrders(orders);
      if (res[19]?.status !== 'placed') throw new Error('bench: unexpected outcome');
    });
    await c.close();
    rows.push(
      `| ${label} | bare node:http | ${fmt(bare.rps)} | ${fmt(bare.p50, 3)} | ${fmt(bare.p99, 3)} |`,
      `| ${label} | full client | ${fmt(full.rps)} | ${fmt(full.p50, 3)} | ${fmt(full.p99, 3)} |`,
      `| ${label} | ratio client/bare (throughput) | ${(full.rps / bare.rps).toFixed(2)} | | |`,
    );
  }
  await server.close();
  console.log(`signed private bulk of 20 orders, loopback keep-alive, ${N} requests after ${WARMUP} warm-up`);
  console.log('| mode | path | requests/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}
