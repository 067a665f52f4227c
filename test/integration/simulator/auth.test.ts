import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, startTestSim, type TestSim } from '../../support/sim-harness.js';

let t: TestSim;
afterEach(async () => t?.close());

const PATH = '/api/v4/main-account/balance';

/** Builds headers by hand, so each test can break exactly one part. */
function signed(body: string, opts: { key?: string; secret?: string; payload?: string; signature?: string } = {}): Record<string, string> {
  const payload = opts.payload ?? Buffer.from(body).toString('base64');
  const signature = opts.signature ?? createHmac('sha512', opts.secret ?? 'secret-1').update(payload).digest('hex');
  return { 'content-type': 'application/json', 'X-TXC-APIKEY': opts.key ?? 'key-1', 'X-TXC-PAYLOAD': payload, 'X-TXC-SIGNATURE': signature };
}

async function send(body: string, opts: Parameters<typeof signed>[1] = {}, path = PATH) {
  return rawRequest(t.sim.baseUrl + path, { method: 'POST', headers: signed(body, opts), body });
}

describe('simulator auth (docs/live-service.md §1)', () => {
  it('accepts an independently computed HMAC-SHA512 over the base64 payload', async () => {
    t = await startTestSim({ accounts: [{ apiKey: 'key-1', apiSecret: 'secret-1', balances: { USDT: '12.5' } }] });
    const r = await send(JSON.stringify({ request: PATH, nonce: '1' }));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ USDT: { main_balance: '12.5' } });
  });

  it('refuses a bad signature, an unknown key, a body that differs from the payload, and a wrong request path', async () => {
    t = await startTestSim({ accounts: [{ apiKey: 'key-1', apiSecret: 'secret-1' }] });
    const body = JSON.stringify({ request: PATH, nonce: '5' });
    const bad = await send(body, { secret: 'other' });
    expect([bad.status, (bad.json as { message: string }).message]).toEqual([401, 'Unauthorized request.']);
    const unknown = await send(body, { key: 'nope' });
    expect([unknown.status, (unknown.json as { message: string }).message]).toEqual([401, 'This action is unauthorized. Enable your key in API settings']);
    const otherPayload = Buffer.from(JSON.stringify({ request: PATH, nonce: '6' })).toString('base64');
    const mismatch = await send(body, { payload: otherPayload });
    expect([mismatch.status, mismatch.json]).toEqual([400, { code: 9, message: 'Invalid payload.', errors: {} }]);
    const wrongPath = await send(JSON.stringify({ request: '/api/v4/order/bulk', nonce: '7' }));
    expect([wrongPath.status, (wrongPath.json as { code: number }).code]).toEqual([400, 9]);
    // none of the refused requests consumed the nonce
    const ok = await send(JSON.stringify({ request: PATH, nonce: '5' }));
    expect(ok.status).toBe(200);
  });

  it('refuses a body that is not a JSON object, and a nonce that is missing or not an integer', async () => {
    t = await startTestSim({ accounts: [{ apiKey: 'key-1', apiSecret: 'secret-1' }] });
    for (const body of ['not json', '[1]', 'null']) {
      const r = await send(body);
      expect([r.status, (r.json as { code: number }).code], body).toEqual([400, 9]);
    }
    for (const nonce of [undefined, '12a', 1.5, '-3', true]) {
      const r = await send(JSON.stringify({ request: PATH, nonce }));
      expect([r.status, r.json], String(nonce)).toEqual([422, { code: 30, message: 'Validation failed', errors: { nonce: [expect.any(String)] } }]);
    }
    const missingKey = await rawRequest(t.sim.baseUrl + PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missingKey.status).toBe(401);
  });

  it('strict nonce: equal or lower answers JSON 429 "Too many requests."', async () => {
    t = await startTestSim({ accounts: [{ apiKey: 'key-1', apiSecret: 'secret-1' }] });
    expect((await send(JSON.stringify({ request: PATH, nonce: 100 }))).status).toBe(200);
    for (const n of ['100', '99']) {
      const r = await send(JSON.stringify({ request: PATH, nonce: n }));
      expect([r.status, r.json]).toEqual([429, { code: 0, errors: {}, message: 'Too many requests.' }]);
    }
    expect((await send(JSON.stringify({ request: PATH, nonce: '101' }))).status).toBe(200);
  });

  it('window nonce: within ±5 s of the simulator clock and unique', async () => {
    t = await startTestSim({ accounts: [{ apiKey: 'key-1', apiSecret: 'secret-1' }] });
    const now = t.clock.now();
    const w = (nonce: number) => send(JSON.stringify({ request: PATH, nonce: String(nonce), nonceWindow: true }));
    expect((await w(now + 4000)).status).toBe(200);
    expect((await w(now - 4000)).status).toBe(200); // lower is fine in window mode
    expect((await w(now + 4000)).status).toBe(429); // reused
    expect((await w(now + 6000)).status).toBe(429); // outside the window
    t.clock.advance(10_000);
    expect((await w(now + 6000)).status).toBe(200);
  });
});
