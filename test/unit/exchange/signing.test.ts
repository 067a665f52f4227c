import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildBody, sign } from '../../../src/exchange/signing.js';

describe('sign', () => {
  it('matches an independently computed HMAC-SHA512 over the base64 payload, byte for byte', () => {
    const s = sign({
      apiKey: 'KEY',
      apiSecret: 'SECRET',
      path: '/api/v4/main-account/balance',
      fields: { ticker: 'BTC' },
      nonce: 1700000000123,
      nonceWindow: false,
    });
    const expectedBody = '{"ticker":"BTC","request":"/api/v4/main-account/balance","nonce":"1700000000123"}';
    expect(s.body).toBe(expectedBody);
    const payload = Buffer.from(expectedBody, 'utf8').toString('base64');
    expect(s.headers['X-TXC-PAYLOAD']).toBe(payload);
    expect(Buffer.from(s.headers['X-TXC-PAYLOAD'], 'base64').toString('utf8')).toBe(s.body);
    const hmac = createHmac('sha512', 'SECRET').update(payload).digest('hex');
    expect(s.headers['X-TXC-SIGNATURE']).toBe(hmac);
    expect(s.headers['X-TXC-SIGNATURE']).toMatch(/^[0-9a-f]{128}$/);
    expect(s.headers['X-TXC-APIKEY']).toBe('KEY');
    expect(s.headers['Content-Type']).toBe('application/json');
  });

  it('signs the payload string with a UTF-8 secret, not the raw JSON', () => {
    const s = sign({ apiKey: 'k', apiSecret: 'sécret', path: '/api/v4/x', fields: {}, nonce: 1, nonceWindow: false });
    const payload = Buffer.from(s.body).toString('base64');
    expect(s.headers['X-TXC-SIGNATURE']).toBe(createHmac('sha512', Buffer.from('sécret', 'utf8')).update(payload).digest('hex'));
    expect(s.headers['X-TXC-SIGNATURE']).not.toBe(createHmac('sha512', 'sécret').update(s.body).digest('hex'));
  });

  it('adds nonceWindow true in window mode, inside the signed body', () => {
    const body = buildBody('/api/v4/order/cancel', { market: 'BTC_USDT', orderId: 5 }, 42, true);
    expect(JSON.parse(body)).toEqual({ market: 'BTC_USDT', orderId: 5, request: '/api/v4/order/cancel', nonce: '42', nonceWindow: true });
    expect(body).not.toContain(' ');
  });
});
