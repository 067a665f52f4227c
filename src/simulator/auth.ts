/**
 * Request authentication, written from docs/live-service.md §1 (independently of the client):
 * key known → HMAC-SHA512(secret, base64 payload header) in lowercase hex equals the signature →
 * body equals the decoded payload (else 400 code 9) → `request` equals the path → nonce.
 * Nonce: strictly increasing per key; or, with `"nonceWindow": true` in the body, a millisecond
 * timestamp within ±5 s of the simulator clock, not seen before.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../core/records.js';
import type { Account } from './account.js';
import { badSignature, invalidPayload, nonceRejected, unknownKey, validation } from './errors.js';

export const NONCE_WINDOW_MS = 5_000;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** HMAC-SHA512 of the payload string, lowercase hex. */
export function sign(secret: string, payloadB64: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(payloadB64, 'utf8').digest('hex');
}

export interface Authenticated {
  account: Account;
  body: Record<string, unknown>;
}

/** The key's account when the signature over the payload header matches; throws otherwise. */
function signedAccount(accounts: ReadonlyMap<string, Account>, headers: IncomingHttpHeaders): { account: Account; payload: string } {
  const key = header(headers, 'x-txc-apikey');
  const account = key === undefined ? undefined : accounts.get(key);
  if (account === undefined) throw unknownKey();
  const payload = header(headers, 'x-txc-payload') ?? '';
  const signature = header(headers, 'x-txc-signature') ?? '';
  const expected = Buffer.from(sign(account.apiSecret, payload), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badSignature();
  return { account, payload };
}

/** The body as an object when it is exactly the decoded payload and names `path`; throws code 9 otherwise. */
function payloadBody(payload: string, rawBody: string, path: string): Record<string, unknown> {
  if (Buffer.from(payload, 'base64').toString('utf8') !== rawBody || Buffer.from(rawBody, 'utf8').toString('base64') !== payload) {
    throw invalidPayload();
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw invalidPayload();
  }
  if (!isRecord(body)) throw invalidPayload();
  // Decision: a `request` that differs from the path is answered like a payload mismatch.
  if (body['request'] !== path) throw invalidPayload();
  return body;
}

/** Verifies a private request; throws the venue's error answer when it fails. */
export function authenticate(
  accounts: ReadonlyMap<string, Account>,
  path: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  nowMs: number,
): Authenticated {
  const { account, payload } = signedAccount(accounts, headers);
  const body = payloadBody(payload, rawBody, path);
  checkNonce(account, body['nonce'], body['nonceWindow'] === true, nowMs);
  return { account, body };
}

/** The nonce as digits; a number only when it is a safe integer. */
function nonceText(raw: unknown): string {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw : undefined;
  if (text === undefined || !/^\d{1,30}$/.test(text)) throw validation({ nonce: ['The nonce field is required and must be an integer.'] });
  return text;
}

/** Window mode: a ms timestamp near the clock, not seen before; old entries are pruned as the window moves. */
function checkWindowNonce(account: Account, text: string, nowMs: number): void {
  for (const [k, t] of account.windowNonces) if (Math.abs(t - nowMs) > 2 * NONCE_WINDOW_MS) account.windowNonces.delete(k);
  const ms = Number(text);
  if (Math.abs(ms - nowMs) > NONCE_WINDOW_MS || account.windowNonces.has(text)) throw nonceRejected();
  account.windowNonces.set(text, ms);
}

function checkNonce(account: Account, raw: unknown, windowMode: boolean, nowMs: number): void {
  const text = nonceText(raw);
  if (windowMode) return checkWindowNonce(account, text, nowMs);
  const nonce = BigInt(text);
  if (account.lastNonce !== null && nonce <= account.lastNonce) throw nonceRejected();
  account.lastNonce = nonce;
}
