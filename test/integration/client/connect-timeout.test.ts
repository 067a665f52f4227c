/**
 * The connect timeout, against a peer that never completes the TCP handshake: a child process
 * listens with a backlog of 1 and then blocks its event loop, so it never accepts. Once the
 * accept queue is full the kernel drops further SYNs and a new connection stays "connecting".
 * A request that could not connect provably never left: a write is not ambiguous, a bulk item
 * is `not_sent`, a read is retried and then fails as a timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, TransientError } from '../../../src/core/errors.js';
import { eventually } from '../../support/eventually.js';
import { failure, fixtureClient } from '../../support/fixture-client.js';

const BLACKHOLE = `
const net = require('node:net');
const fs = require('node:fs');
const srv = net.createServer();
srv.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  // The port line is written synchronously, then the loop blocks at once: the child never
  // accepts, however late a loaded machine runs it (a timer before blocking let it accept a
  // connection after the queue had looked full).
  fs.writeSync(1, srv.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;

let child: ChildProcess;
let port = 0;
const fillers: net.Socket[] = [];

/** Resolves 'connected' or 'pending' (no handshake within `ms`). */
function probe(ms: number): Promise<'connected' | 'pending'> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', reject);
    // A real timer on purpose: what is measured is the kernel's handshake, not our clock.
    const t = setTimeout(() => {
      s.destroy();
      resolve('pending');
    }, ms);
    s.once('connect', () => {
      clearTimeout(t);
      fillers.push(s);
      resolve('connected');
    });
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', BLACKHOLE], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve) => child.stdout?.once('data', (b: Buffer) => resolve(Number.parseInt(b.toString(), 10))));
  // Fill the accept queue until a handshake no longer completes (those that completed stay open
  // as fillers).
  await eventually(async () => (await probe(300)) === 'pending', 'the accept queue to fill', { timeoutMs: 20_000, everyMs: 0 });
  expect(await probe(300)).toBe('pending');
});

afterAll(() => {
  for (const s of fillers) s.destroy();
  child.kill('SIGKILL');
});

describe('connect timeout', () => {
  it('a write that cannot connect is a TransientError timeout, not an ambiguous outcome', async () => {
    const client = fixtureClient(`http://127.0.0.1:${port}`, { timeouts: { connectMs: 200, responseMs: 5_000 } });
    try {
      const err = await failure(client.collateralLimitOrder({ market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('40000'), clientOrderId: 'ct-1' }));
      expect(err).toBeInstanceOf(TransientError);
      expect(err).not.toBeInstanceOf(AmbiguousOutcomeError);
      expect((err as TransientError).kind).toBe('timeout');
      expect(err.message).toContain('connect not established within 200 ms');
    } finally {
      await client.close();
    }
  });

  it('bulk items are not_sent, none unknown', async () => {
    const client = fixtureClient(`http://127.0.0.1:${port}`, { timeouts: { connectMs: 200, responseMs: 5_000 } });
    try {
      const res = await client.bulkLimitOrders(
        Array.from({ length: 3 }, (_, i) => ({ market: 'BTC_USDT', side: 'buy' as const, amount: dec('0.01'), price: dec(String(40000 + i)), clientOrderId: `ct-b${i}` })),
      );
      expect(res.map((r) => r.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    } finally {
      await client.close();
    }
  });

  it('a read (retried as configured) ends in a TransientError timeout', async () => {
    const client = fixtureClient(`http://127.0.0.1:${port}`, { timeouts: { connectMs: 150, responseMs: 5_000 } });
    try {
      const err = await failure(client.mainBalance('BTC'));
      expect(err).toBeInstanceOf(TransientError);
      expect((err as TransientError).kind).toBe('timeout');
    } finally {
      await client.close();
    }
  });
});
