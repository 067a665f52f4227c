/**
 * The simulator's HTTP surface: requests Node or the URL parser cannot take, large signed
 * requests, one rate pool per account endpoint, and who may call the admin routes.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, startTestSim, type SimReply, type TestSim } from '../../support/sim-harness.js';

let t: TestSim;
afterEach(async () => t?.close());

/** Sends `head` (request line and headers, no final blank line) and `body` byte for byte; returns status and body. */
function rawHttp(port: number, head: string, body = ''): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0),
        contentType: /^content-type: *(.*)$/im.exec(headers)?.[1]?.trim() ?? '',
        body,
      });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

describe('requests that do not parse', () => {
  it('answers a malformed URL with a 400 in the spec error shape', async () => {
    t = await startTestSim({});
    const r = await rawHttp(t.sim.port, 'GET //[ HTTP/1.1\r\nHost: 127.0.0.1');
    expect([r.status, r.contentType, JSON.parse(r.body)]).toEqual([400, 'application/json', { success: false, message: 'Bad request', params: [] }]);
  });

  it('answers a broken request line with a 400 JSON body, not an empty one', async () => {
    t = await startTestSim({});
    const r = await rawHttp(t.sim.port, 'NOT-HTTP');
    expect([r.status, JSON.parse(r.body)]).toEqual([400, { success: false, message: 'Bad request', params: [] }]);
  });

  it('serves a signed bulk whose Base64 payload header exceeds 16 KiB', async () => {
    t = await startTestSim({});
    // 20 orders on a long unknown market name: ~16 KB of body, ~21 KB of payload header.
    const orders = Array.from({ length: 20 }, () => ({ market: `X${'Y'.repeat(780)}_USDT`, side: 'buy', amount: '1', price: '1' }));
    const r = await t.post('/api/v4/order/bulk', { orders });
    expect(r.status).toBe(200);
    const items = r.json as { result: unknown; error: { code: number } }[];
    expect(items.map((i) => [i.result, i.error.code])).toEqual(Array.from({ length: 20 }, () => [null, 31]));
  });

  it('answers headers beyond the limit with a JSON error body', async () => {
    t = await startTestSim({});
    const r = await rawHttp(t.sim.port, `POST /api/v4/order/bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nX-TXC-PAYLOAD: ${'A'.repeat(1_400_000)}`);
    expect([r.status, JSON.parse(r.body)]).toEqual([431, { code: 0, message: 'Request header fields too large', errors: {} }]);
  });
});

describe('routing', () => {
  it('answers 404 to an unknown path and to a known path with the wrong method', async () => {
    t = await startTestSim({ rateLimits: { public: { limit: 1, windowMs: 60_000 } } });
    const notFound = (r: SimReply) => [r.status, r.json];
    const expected = [404, { success: false, message: 'Not found', params: [] }];
    expect(notFound(await t.post('/api/v4/public/ping'))).toEqual(expected);
    expect(notFound(await t.get('/api/v4/main-account/balance'))).toEqual(expected);
    expect(notFound(await t.post('/api/v4/nothing'))).toEqual(expected);
    // None of those spent the public pool's one request.
    expect((await t.get('/api/v4/public/ping')).status).toBe(200);
    expect((await t.get('/api/v4/public/ping')).status).toBe(429);
  });
});

describe('rate pools', () => {
  it('gives main balance, flex history, flex close and credit line one pool each', async () => {
    const one = { limit: 1, windowMs: 10_000 };
    t = await startTestSim({ rateLimits: { balance: one, flexHistory: one, flexClose: one, creditLine: one } });
    const paths = [
      '/api/v4/main-account/balance',
      '/api/v4/main-account/smart-flex/investments/history',
      '/api/v4/main-account/smart-flex/investments/close',
      '/api/v4/credit-line/loans/info',
    ];
    const first = await Promise.all(paths.map((p) => t.post(p, {})));
    expect(first.map((r) => r.status)).not.toContain(429);
    const second = await Promise.all(paths.map((p) => t.post(p, {})));
    expect(second.map((r) => r.status)).toEqual([429, 429, 429, 429]);
  });
});

describe('admin routes refuse what a web page could send', () => {
  const price = (headers: Record<string, string>): Promise<SimReply> =>
    rawRequest(`${t.sim.baseUrl}/_sim/price`, { method: 'POST', headers, body: JSON.stringify({ market: 'BTC_USDT', price: '1' }) });

  it('a write that is not application/json', async () => {
    t = await startTestSim({ admin: true });
    const before = t.sim.prices().prices['BTC_USDT'];
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expect((await price({ 'content-type': type })).status).toBe(415);
    }
    expect(t.sim.prices().prices['BTC_USDT']).toBe(before);
    expect((await price({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('a Host that is not loopback (DNS rebinding), on reads and writes', async () => {
    t = await startTestSim({ admin: true });
    const host = (h: string) => rawHttp(t.sim.port, `GET /_sim/truth HTTP/1.1\r\nHost: ${h}`);
    for (const h of ['evil.example', 'evil.example:8080', '127.0.0.1.evil.example', 'localhost.evil.example']) {
      expect((await host(h)).status).toBe(403);
    }
    const accounts = await rawHttp(t.sim.port, 'POST /_sim/accounts HTTP/1.1\r\nHost: attacker.test\r\nContent-Type: application/json\r\nContent-Length: 2', '{}');
    expect(accounts.status).toBe(403);
    for (const h of ['127.0.0.1', `127.0.0.1:${t.sim.port}`, `localhost:${t.sim.port}`, 'LOCALHOST', '[::1]:1']) {
      expect((await host(h)).status).toBe(200);
    }
  });

  it('a cross-origin Origin', async () => {
    t = await startTestSim({ admin: true });
    const json = { 'content-type': 'application/json' };
    for (const origin of ['http://evil.example', 'null', `http://localhost:${t.sim.port + 1}`, `https://127.0.0.1:${t.sim.port}`]) {
      expect((await price({ ...json, origin })).status).toBe(403);
    }
    expect((await price({ ...json, origin: `http://127.0.0.1:${t.sim.port}` })).status).toBe(200);
  });
});
