/**
 * Builders for client tests: a client pointed at a fixture server with short timeouts and fast
 * retries, credentials that tests can scan for, and venue-shaped reply bodies.
 */
import { SystemClock } from '../../src/core/clock.js';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../src/exchange/client.js';

export const TEST_KEY = 'tk-4f8a1c2e9b7d4a55';
export const TEST_SECRET = 'ts-9c1e77ab0f3d4e6a8b2c';

export function fixtureClient(baseUrl: string, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({
    baseUrl,
    apiKey: TEST_KEY,
    apiSecret: TEST_SECRET,
    timeouts: { connectMs: 300, responseMs: 250 },
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    clock: new SystemClock(),
    random: () => 0.5,
    ...overrides,
  });
}

/** An Order (spec 2.1) as the venue sends it. */
export function wireOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId: 4180284841,
    clientOrderId: 'bot-1',
    market: 'BTC_USDT',
    side: 'buy',
    type: 'limit',
    timestamp: 1595792396.165973,
    dealMoney: '0',
    dealStock: '0',
    amount: '0.01',
    left: '0.01',
    dealFee: '0',
    price: '40000',
    postOnly: false,
    ioc: false,
    status: 'NEW',
    stp: 'no',
    positionSide: 'BOTH',
    rpi: false,
    ...over,
  };
}

/** A deal (spec 2.6). */
export function wireDeal(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 160305483,
    clientOrderId: 'bot-1',
    time: 1594667731.724403,
    side: 'sell',
    role: 2,
    amount: '0.000076',
    price: '9264.21',
    deal: '0.70407996',
    fee: '0.00070407996',
    orderId: 13963704,
    feeAsset: 'USDT',
    ...over,
  };
}

/** The error a promise rejects with (fails the test when it resolves or rejects with a non-Error). */
export async function failure(p: Promise<unknown>): Promise<Error> {
  const r = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(r instanceof Error)) throw new Error('expected a rejection');
  return r;
}
