/**
 * Builders for client tests: a client pointed at a fixture server with short timeouts and fast
 * retries, credentials that tests can scan for, and venue-shaped reply bodies.
 */
import { SystemClock } from '../../src/core/clock.js';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../src/exchange/api-client.js';
import { DEAL_SAMPLE, ORDER_SAMPLE } from '../../src/exchange/samples.js';

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

/** An Order (docs/api-v4.md §2.1) as the venue sends it (ORDER_SAMPLE), with overrides. */
export function wireOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...ORDER_SAMPLE, ...over };
}

/** A deal (docs/api-v4.md §2.6, DEAL_SAMPLE), with overrides. */
export function wireDeal(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...DEAL_SAMPLE, ...over };
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
