/**
 * Test helpers for the simulator: start it on an ephemeral loopback port with a ManualClock, and
 * sign requests here with node:crypto directly (independently of src/exchange and of the
 * simulator's own auth code).
 */
import { createHmac } from 'node:crypto';
import { ManualClock } from '../../src/core/clock.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../src/simulator/index.js';

export interface SimReply {
  status: number;
  text: string;
  contentType: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
}

export interface TestSim {
  sim: SimulatorHandle;
  clock: ManualClock;
  /** Signed POST with the default account (or `creds`); nonce from a per-harness counter. */
  post(path: string, fields?: Record<string, unknown>, creds?: { apiKey: string; apiSecret: string }): Promise<SimReply>;
  /** Unsigned GET. */
  get(path: string): Promise<SimReply>;
  close(): Promise<void>;
}

export function signPayload(secret: string, body: string): { payload: string; signature: string } {
  const payload = Buffer.from(body, 'utf8').toString('base64');
  const signature = createHmac('sha512', secret).update(payload).digest('hex');
  return { payload, signature };
}

export async function rawRequest(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<SimReply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, contentType: res.headers.get('content-type') ?? '', json };
}

/** A POST of `fields` to `baseUrl + path`, signed as the venue wants with `creds`, carrying `nonce`. */
export function signedPost(baseUrl: string, path: string, fields: Record<string, unknown>, creds: { apiKey: string; apiSecret: string }, nonce: number): Promise<SimReply> {
  const body = JSON.stringify({ ...fields, request: path, nonce: String(nonce) });
  const { payload, signature } = signPayload(creds.apiSecret, body);
  return rawRequest(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-TXC-APIKEY': creds.apiKey, 'X-TXC-PAYLOAD': payload, 'X-TXC-SIGNATURE': signature },
    body,
  });
}

/**
 * The simulator on an ephemeral loopback port and its clock: `options.clock` when it is a
 * ManualClock, else a new one at 1_700_000_000_000. `seed` applies unless `options` names one.
 */
export async function startOnManualClock(options: SimulatorOptions, seed: number): Promise<{ sim: SimulatorHandle; clock: ManualClock }> {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(1_700_000_000_000);
  const sim = await startSimulator({ seed, ...options, clock });
  return { sim, clock };
}

export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const { sim, clock } = await startOnManualClock(options, 42);
  let nonce = 1_000;
  const post = (path: string, fields: Record<string, unknown> = {}, creds = sim.defaultAccount): Promise<SimReply> =>
    signedPost(sim.baseUrl, path, fields, creds, ++nonce);
  return {
    sim,
    clock,
    post,
    get: (path) => rawRequest(sim.baseUrl + path, { method: 'GET' }),
    close: () => sim.close(),
  };
}
