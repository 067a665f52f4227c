/**
 * Client overhead, in one run against one loopback keep-alive server (a separate process, so the
 * CPU figures are the client's alone): a signed `main balance` and a signed bulk of 20 orders
 * through the full client (limiter, nonce, signing, send lane, transport, classification,
 * parsing), against the same prebuilt request sent with bare node:http (the floor).
 * Sequential (strict and window nonces) and 16 callers (strict: one private request in flight;
 * window: concurrent). Budgets are set far above the load, so the figures are the path's cost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { SystemClock } from '../../src/core/clock.js';
import { createApiClient, type ApiClient } from '../../src/exchange/api-client.js';
import { sign } from '../../src/exchange/signing.js';
import { BALANCE_PATH, BULK_PATH, orders, wireOrders } from './client-fixture.js';

const N = 2000;
const WARMUP = 300;
const UNBOUNDED = { limit: 1e9, windowMs: 10_000, safetyMargin: 1 };

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Process CPU (user + system) per request, µs. */
  cpuUs: number;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(concurrency: number, once: () => Promise<void>): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await once();
  const lat: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  return { rps: (N / total) * 1000, p50: pct(lat, 50), p99: pct(lat, 99), cpuUs: (cpu.user + cpu.system) / N };
}

type Call = 'balance' | 'bulk of 20';

function floorSender(port: number, call: Call): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const route = call === 'balance' ? BALANCE_PATH : BULK_PATH;
  const fields = call === 'balance' ? {} : { orders: wireOrders, stopOnFail: false };
  // The same body the client sends, signed once up front.
  const signed = sign({ apiKey: 'k', apiSecret: 's', path: route, fields, nonce: 1, nonceWindow: false });
  const headers = { ...signed.headers, 'Content-Length': String(Buffer.byteLength(signed.body)) };
  return () =>
    new Promise<void>((resolve, reject) => {
      const r = http.request({ host: '127.0.0.1', port, method: 'POST', path: route, headers, agent }, (res) => {
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

function client(port: number, nonceMode: 'strict' | 'window'): ApiClient {
  return createApiClient({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: 'bench-key',
    apiSecret: 'bench-secret',
    nonceMode,
    clock: new SystemClock(),
    rateLimits: { pools: { orders: UNBOUNDED, mainBalance: UNBOUNDED } },
  });
}

function clientCall(c: ApiClient, call: Call): () => Promise<void> {
  if (call === 'balance') {
    return async () => {
      const b = await c.mainBalance();
      if (b.get('BTC')?.toFixed() !== '1.25') throw new Error('bench: unexpected balance');
    };
  }
  return async () => {
    const res = await c.bulkLimitOrders(orders);
    if (res[19]?.status !== 'placed') throw new Error('bench: unexpected outcome');
  };
}

async function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/bench/loopback-server.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  return { port: Number(first), child };
}

const MODES = [
  ['sequential', 1, 'strict'],
  ['sequential', 1, 'window'],
  ['16 callers', 16, 'strict'],
  ['16 callers', 16, 'window'],
] as const;

function row(call: Call, label: string, path: string, f: Figures, floor?: Figures): string {
  const ratio = floor === undefined ? '' : ` ${(f.rps / floor.rps).toFixed(2)} | ${(f.cpuUs / floor.cpuUs).toFixed(2)} |`;
  return `| ${call} | ${label} | ${path} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(3)} | ${f.p99.toFixed(3)} | ${f.cpuUs.toFixed(0)} |${floor === undefined ? ' | |' : ratio}`;
}

export default async function run(): Promise<void> {
  const { port, child } = await startServer();
  const rows: string[] = [];
  try {
    for (const call of ['balance', 'bulk of 20'] as const) {
      const floors = new Map<number, Figures>();
      for (const [label, conc, mode] of MODES) {
        const floor = floors.get(conc) ?? (await measure(conc, floorSender(port, call)));
        if (!floors.has(conc)) rows.push(row(call, label, 'floor (bare node:http)', floor));
        floors.set(conc, floor);
        const c = client(port, mode);
        const full = await measure(conc, clientCall(c, call));
        await c.close();
        rows.push(row(call, `${label} (${mode})`, 'client', full, floor));
      }
    }
  } finally {
    child.stdin!.end();
  }
  console.log(`signed private calls, loopback keep-alive server in its own process, ${N} requests after ${WARMUP} warm-up; CPU = this process (the client) per request`);
  console.log('| call | callers (nonces) | path | req/s | p50 ms | p99 ms | CPU µs/req | req/s ÷ floor | CPU ÷ floor |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}
